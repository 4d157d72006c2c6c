import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getAccountRecord } from './account-data';
import { listReceivers } from './receiver-repository';
import { pushIdsOf, receiverView } from './receiver-service';

export const handler = httpHandler(routes.getAlarmReceivers, async ({ auth }) => {
  const [account, receivers, pushIds] = await Promise.all([getAccountRecord(auth.accountId), listReceivers(auth.accountId), pushIdsOf(auth.accountId)]);
  return {
    alarmReceivers: receivers.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)).map((r) => receiverView(r, pushIds)),
    SmsCredits: account.smsCredits ?? 0,
  };
});
