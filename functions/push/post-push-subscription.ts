/** POST /api/v1/user/push/subscriptions: registers this browser for the caller's alarms. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { registerSubscription } from './service';

export const handler = httpHandler(routes.postPushSubscription, async ({ auth, body, ports }) => registerSubscription(auth, body, ports.clock.now()));
