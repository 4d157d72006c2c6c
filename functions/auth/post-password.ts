/** POST /api/v1/user/password: the set-new-password modal; only the caller's own password. */
import { routes } from '../../shared/routes';
import { NotFoundError } from '../platform/errors';
import { HttpReply, httpHandler } from '../platform/http';
import { getUser } from './user-repository';

export const handler = httpHandler(routes.changePassword, async ({ body, auth, ports }) => {
  // Another user's id is answered as unknown: whether it exists is not the caller's business.
  if (body.userId !== auth.userId) throw new NotFoundError('UserNotFound');
  const user = await getUser(auth.userId);
  await ports.identity.setPassword(user.username, body.password);
  return new HttpReply(200, null, 'User updated successfully.');
});
