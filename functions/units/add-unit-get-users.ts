import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { grantableUsers } from './add-unit-service';

export const handler = httpHandler(routes.getGrantableUsers, async ({ auth }) => grantableUsers(auth));
