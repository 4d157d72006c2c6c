import { routes } from '../../shared/routes';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { httpHandler } from '../platform/http';
import { unitFor } from './access';
import { toAttestation, unitAttestations } from './attestation-repository';
import { namesOf } from './people';

export const handler = httpHandler(routes.getTripAttestations, async ({ auth, query, timeZone }) => {
  const unit = await unitFor(auth, query.imei);
  const items = await unitAttestations(unit.accountId, unit.imei, addMonthsToDay(query.from, -12), query.from, query.to);
  const names = await namesOf(unit.accountId, items.map((a) => a.userId));
  return items.map((a) => toAttestation(a, names.get(a.userId) ?? null, timeZone));
});
