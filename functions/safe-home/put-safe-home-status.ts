import { routes } from '../../shared/routes';
import { safeHomeMessageKeys as keys } from '../../shared/schemas/safe-home';
import { HttpReply, httpHandler } from '../platform/http';
import { setStatus } from './service';

export const handler = httpHandler(routes.putSafeHomeStatus, async ({ auth, params, body, ports }) =>
  new HttpReply(200, await setStatus(auth, params.imei, body.status, ports.clock.now()), keys.SafeHomeStatusUpdated),
);
