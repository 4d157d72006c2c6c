import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { tripFor } from './access';
import { splitTrip } from './merge-service';
import { tripViews } from './trip-views';

export const handler = httpHandler(routes.splitTrip, async ({ auth, params, timeZone, ports }) => {
  const { unit, trip } = await tripFor(auth, params.id);
  return tripViews(unit, await splitTrip(trip, { by: auth.userId, at: ports.clock.now().getTime() }, ports), timeZone);
});
