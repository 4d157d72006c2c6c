import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { setUnitSetting } from './support-settings';

export const handler = httpHandler(routes.setSupportReportFrequencyChange, async ({ auth, params, body, ports }) => {
  await setUnitSetting(auth, params.imei, 'reportFrequencyChange', body.reportFrequencyChange, ports.clock.now());
  return null;
});
