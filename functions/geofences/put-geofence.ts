import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { saveGeofence } from './service';

export const handler = httpHandler(routes.updateGeofence, ({ auth, params, body, timeZone, ports }) =>
  saveGeofence(auth, params.id, body, timeZone, ports.clock.now()),
);
