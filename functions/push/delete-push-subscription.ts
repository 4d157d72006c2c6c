/** DELETE /api/v1/user/push/subscriptions?id= or ?endpoint=: removes one of the caller's subscribed browsers. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeSubscription } from './service';

export const handler = httpHandler(routes.deletePushSubscription, async ({ auth, query }) => removeSubscription(auth, query));
