import { routes } from '../../shared/routes';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { created, httpHandler } from '../platform/http';
import { createUser } from './user-service';

export const handler = httpHandler(routes.createAccountUser, async ({ auth, body, ports }) => created(await createUser(auth, body, ports), keys.UserCreated));
