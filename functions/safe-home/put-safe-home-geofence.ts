import { routes } from '../../shared/routes';
import { safeHomeMessageKeys as keys } from '../../shared/schemas/safe-home';
import { HttpReply, httpHandler } from '../platform/http';
import { setHome } from './service';

export const handler = httpHandler(routes.putSafeHomeGeofence, async ({ auth, params, body, ports }) =>
  new HttpReply(200, await setHome(auth, params.imei, body, ports), keys.HomeAddressUpdateMsg),
);
