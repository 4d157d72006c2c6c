/** GET /api/v1/user/push/subscriptions: the caller's subscribed browsers. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listSubscriptions } from './service';

export const handler = httpHandler(routes.getPushSubscriptions, async ({ auth }) => listSubscriptions(auth));
