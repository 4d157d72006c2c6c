import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listUsers } from './user-service';

export const handler = httpHandler(routes.getAccountUsers, async ({ auth }) => ({ users: await listUsers(auth) }));
