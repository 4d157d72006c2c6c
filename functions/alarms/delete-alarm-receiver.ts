import { routes } from '../../shared/routes';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { deleteReceiver, getReceiver } from './receiver-repository';

export const handler = httpHandler(routes.deleteAlarmReceiver, async ({ auth, params }) => {
  await deleteReceiver(await getReceiver(auth.accountId, params.id));
  return new HttpReply(200, null, keys.AlarmReceiverDeleteSuccessMsg);
});
