import { routes } from '../../shared/routes';
import { accountFeatures } from '../platform/auth-context';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getSafeHomeConfig, async ({ auth }) => ({ EnableSafeReturnHome: (await accountFeatures(auth.accountId))?.safeReturnHome === true }));
