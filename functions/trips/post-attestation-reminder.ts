import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { remindToAttest } from './attestation-service';
import { isoInZone } from '../../shared/local-time';

export const handler = httpHandler(routes.remindAttestation, async ({ auth, body, timeZone, ports }) => {
  const { sent, remindedAt } = await remindToAttest(auth, body, ports, ports.clock.now().getTime());
  return { sent, remindedAt: isoInZone(remindedAt, timeZone) };
});
