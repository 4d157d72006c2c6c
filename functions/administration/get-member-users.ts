/** GET /user/users?limit=-1 (spec section 7 user/list): the account's users for any member, as data.user. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listUsers } from './user-service';

export const handler = httpHandler(routes.getMemberUsers, async ({ auth, query }) => {
  const users = await listUsers(auth);
  const shown = query.limit === -1 ? users : users.slice(0, query.limit);
  return { user: shown.map((u) => ({ ID: u.id, FirstName: u.FirstName, LastName: u.LastName, Email: u.email, isAdmin: u.isAdmin })) };
});
