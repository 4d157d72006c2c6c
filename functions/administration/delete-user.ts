import { routes } from '../../shared/routes';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { deleteUser } from './user-service';

export const handler = httpHandler(routes.deleteAccountUser, async ({ auth, params, ports }) => {
  await deleteUser(auth, params.id, ports);
  return new HttpReply(200, null, keys.UserDeleted);
});
