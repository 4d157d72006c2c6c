import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { searchAccounts } from './account-search';
import { logSupportAction } from './support-log';

export const handler = httpHandler(routes.searchSupportAccounts, async ({ auth, query, ports }) => {
  const accounts = await searchAccounts(query.by, query.q, auth.lang);
  const only = accounts.length === 1 ? accounts[0] : undefined;
  await logSupportAction(
    auth,
    { action: 'searchAccounts', account: only ? { accountId: only.accountId, name: only.name } : null, details: `${query.by}: ${query.q} (${accounts.length})` },
    ports.clock.now(),
  );
  return { accounts };
});
