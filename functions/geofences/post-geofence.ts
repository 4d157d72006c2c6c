import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { saveGeofence } from './service';

export const handler = httpHandler(routes.createGeofence, async ({ auth, body, timeZone, ports }) => {
  const saved = await saveGeofence(auth, null, body, timeZone, ports.clock.now());
  return created({ id: saved.id });
});
