import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { readAutomatic } from './autoplan-repository';

export const handler = httpHandler(routes.getAutoplanSettings, async ({ auth }) => ({ automatic: await readAutomatic(auth.accountId) }));
