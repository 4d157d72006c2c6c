import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { readSettings } from './settings-repository';

export const handler = httpHandler(routes.getAccountSettings, async ({ auth }) => readSettings(auth.accountId, auth));
