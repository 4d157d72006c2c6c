import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { setBasicOnly } from './support-settings';

export const handler = httpHandler(routes.setSupportAccountSettings, async ({ auth, params, body, ports }) => {
  await setBasicOnly(auth, params.accountId, body.basicOnly, ports.clock.now());
  return null;
});
