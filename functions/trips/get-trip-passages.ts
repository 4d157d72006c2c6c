/**
 * GET /trips/{id}/passages: the congestion tax passages of a trip (functions/congestion), each
 * priced with the other passages of its tax days, since the daily cap and Gothenburg's 60-minute
 * rule depend on them. A private trip's passages say where it went: refused like its route.
 */
import { isoInZone, localDaysRange } from '../../shared/local-time';
import { routes } from '../../shared/routes';
import { TAX_ZONE, localMinute } from '../../shared/congestion/tariff-tables';
import { pricePassages } from '../../shared/congestion/tariff';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { unitPassages } from '../congestion/passage-repository';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { tripFor } from './access';

export const handler = httpHandler(routes.getTripPassages, async ({ auth, params, timeZone }) => {
  // Another account's trip is 404, a unit locked by someone else 423 (tripFor).
  const { unit, trip } = await tripFor(auth, params.id);
  if (trip.type === 'private') throw new ValidationError({ id: [keys.RoutePrivateTrip] }, keys.RoutePrivateTrip);
  const { fromMs, toMs } = localDaysRange(localMinute(trip.startTs).day, localMinute(trip.stopTs).day, TAX_ZONE);
  const days = await unitPassages(unit.accountId, unit.imei, fromMs, toMs - 1);
  return pricePassages(days)
    .passages.filter((p) => p.time >= trip.startTs && p.time <= trip.stopTs)
    .map((p) => ({ time: isoInZone(p.time, timeZone), city: p.city, station: p.station, direction: p.direction, amount: p.amount, reason: p.reason ?? null, uncertain: p.uncertain }));
});
