import { routes } from '../../shared/routes';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { toggleAlarm } from './receiver-service';

export const handler = httpHandler(routes.toggleAlarmReceiver, async ({ auth, body, ports }) => {
  await toggleAlarm(auth, body.receiverId, body.type, body.state, ports.clock.now());
  return new HttpReply(200, null, keys.AlarmSettingSaved);
});
