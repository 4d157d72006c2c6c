import { routes } from '../../shared/routes';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { NotFoundError } from '../platform/errors';
import { HttpReply, httpHandler } from '../platform/http';
import { setAccountFields } from './account-data';
import { alertNumberAccounts } from './alert-numbers';

export const handler = httpHandler(routes.setAlertNumber, async ({ auth, params, body }) => {
  const account = (await alertNumberAccounts(auth)).find((a) => a.accountId === params.accountId);
  if (!account) throw new NotFoundError('AccountNotFound');
  await setAccountFields(account.accountId, { alertSenderId: body.alertSenderId ? body.alertSenderId : null });
  return new HttpReply(200, null, keys.AlertSenderIdSaved);
});
