import { routes } from '../../shared/routes';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { saveReceiver } from './receiver-service';

export const handler = httpHandler(routes.saveAlarmReceiver, async ({ auth, body, ports }) => {
  const saved = await saveReceiver(auth, body, ports.clock.now());
  return new HttpReply(200, { id: saved.id }, keys.AlarmReceiverSuccessMsg);
});
