import { routes } from '../../shared/routes';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { assignUnits } from './receiver-service';

export const handler = httpHandler(routes.assignAlarmReceiverUnits, async ({ auth, body, ports }) => {
  await assignUnits(auth, body, ports.clock.now());
  return new HttpReply(200, null, keys.UnitsSelectedSuccessMsg);
});
