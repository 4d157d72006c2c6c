import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getGeofence } from './service';

export const handler = httpHandler(routes.getGeofence, ({ auth, params }) => getGeofence(auth, params.id));
