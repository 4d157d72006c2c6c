import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeGeofence } from './service';

export const handler = httpHandler(routes.deleteGeofence, async ({ auth, params }) => {
  await removeGeofence(auth, params.id);
  return null;
});
