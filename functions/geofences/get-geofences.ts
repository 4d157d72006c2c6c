import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listGeofences } from './service';

export const handler = httpHandler(routes.getGeofences, async ({ auth }) => ({ geofences: await listGeofences(auth) }));
