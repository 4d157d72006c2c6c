/** GET /api/v1/user/push/vapid-public-key: the key the browser subscribes with. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getVapidPublicKey, async ({ ports }) => ({ publicKey: await ports.webPush.publicKey() }));
