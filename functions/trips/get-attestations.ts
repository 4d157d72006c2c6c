import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { toAttestation } from './attestation-repository';
import { attestationStatus } from './attestation-service';
import { isoInZone } from '../../shared/local-time';

export const handler = httpHandler(routes.getAttestationStatus, async ({ auth, query, timeZone }) => {
  const { users, names } = await attestationStatus(auth.accountId, query.month, query.userId);
  return {
    month: query.month,
    users: users.map((u) => ({
      userId: u.user.userId,
      name: u.user.name,
      status: u.status,
      attestations: u.attestations.map((a) => toAttestation(a, names.get(a.userId) ?? null, timeZone)),
      remindedAt: u.remindedAt === null ? null : isoInZone(u.remindedAt, timeZone),
    })),
  };
});
