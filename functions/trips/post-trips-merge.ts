import { routes } from '../../shared/routes';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { httpHandler } from '../platform/http';
import { tripFor } from './access';
import { mergeTrips } from './merge-service';
import { tripView } from './trip-views';

export const handler = httpHandler(routes.mergeTrips, async ({ auth, body, timeZone, ports }) => {
  const [a, b] = body.ids;
  // A trip that does not exist, or that the caller may not see, is answered alike (404 NoTripsFound).
  const first = await tripFor(auth, a, keys.NoTripsFound);
  const second = await tripFor(auth, b, keys.NoTripsFound);
  const merged = await mergeTrips(first.trip, second.trip, timeZone, { by: auth.userId, at: ports.clock.now().getTime() }, ports);
  return tripView(first.unit, merged, timeZone);
});
