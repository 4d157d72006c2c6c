import { routes } from '../../shared/routes';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { queryPositions } from '../tracking/position-repository';
import { tripFor } from './access';
import { isoInZone } from '../../shared/local-time';

/** A trip's route at most this many points (a day's drive at one fix a second). */
export const ROUTE_MAX_POINTS = 86_400;

export const handler = httpHandler(routes.getTripRoute, async ({ auth, params, timeZone }) => {
  // A unit locked by someone else is 423 TrackerIsLocked (tripFor).
  const { trip } = await tripFor(auth, params.id);
  // Spec section 5: private trips are not shown on the map.
  if (trip.type === 'private') throw new ValidationError({ id: [keys.RoutePrivateTrip] }, keys.RoutePrivateTrip);
  const { items } = await queryPositions(trip.imei, trip.startTs, trip.stopTs, ROUTE_MAX_POINTS);
  return items.map((p) => ({ ts: isoInZone(p.ts, timeZone), lat: p.lat, lon: p.lon, speed: p.speed ?? null }));
});
