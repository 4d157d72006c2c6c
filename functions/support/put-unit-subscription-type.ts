import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { setUnitSetting } from './support-settings';

export const handler = httpHandler(routes.setSupportSubscriptionType, async ({ auth, params, body, ports }) => {
  await setUnitSetting(auth, params.imei, 'subscriptionType', body.subscriptionType, ports.clock.now());
  return null;
});
