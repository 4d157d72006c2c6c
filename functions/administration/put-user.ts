import { routes } from '../../shared/routes';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { updateUser } from './user-service';

export const handler = httpHandler(routes.updateAccountUser, async ({ auth, params, body, ports }) => {
  await updateUser(auth, params.id, body, ports);
  return new HttpReply(200, null, keys.UserUpdated);
});
