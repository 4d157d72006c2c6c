import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { alertNumberAccounts } from './alert-numbers';

export const handler = httpHandler(routes.getAlertNumbers, async ({ auth }) => {
  const accounts = await alertNumberAccounts(auth);
  return {
    accounts: accounts
      .map((a) => ({ accountId: a.accountId, name: a.name, alertSenderId: a.alertSenderId ?? null }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.accountId.localeCompare(b.accountId)),
  };
});
