/**
 * POST /api/v1/alert-opt-out: stops alerts (and push when asked) to a user who proves it with
 * their username or e-mail and password, checked exactly like a login (a wrong password counts
 * towards the lockout). No session is started. `remove_push` also unsubscribes every browser the
 * user registered for Web Push (functions/push/subscriptions.ts).
 */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { checkCredentials, discardLogin } from './credentials';
import { deleteSubscriptionsOf } from '../push/subscriptions';
import { optOutOfAlerts } from './user-repository';

export const handler = httpHandler(routes.alertOptOut, async ({ body, ports, event }) => {
  const { user, auth } = await checkCredentials(body.nt_useremail, body.nt_password, body.subsite_id, ports, event);
  await discardLogin(ports, auth);
  await optOutOfAlerts(user.userId, body.remove_push, ports.clock.now());
  if (body.remove_push) await deleteSubscriptionsOf(user.userId);
  return { message: 'AlertOptOutDone' };
});
