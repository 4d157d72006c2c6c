import { routes } from '../../shared/routes';
import { safeHomeMessageKeys as keys } from '../../shared/schemas/safe-home';
import { HttpReply, httpHandler } from '../platform/http';
import { setSchedule } from './service';

export const handler = httpHandler(routes.putSafeHomeSchedule, async ({ auth, params, body, ports }) =>
  new HttpReply(200, await setSchedule(auth, params.imei, body, ports.clock.now()), keys.AlertScheduleUpdated),
);
