import { routes } from '../../shared/routes';
import { getEnv } from '../platform/env';
import { httpHandler } from '../platform/http';
import { unitFor } from './access';
import { CHECK_IN_PATH, checkInCodeOf } from './check-in-code';

export const handler = httpHandler(routes.getCheckInCode, async ({ auth, params }) => {
  const unit = await unitFor(auth, params.imei);
  const code = await checkInCodeOf(unit.imei);
  const path = `${CHECK_IN_PATH}${code}`;
  return { imei: unit.imei, code, path, url: new URL(path, getEnv().APP_URL).href };
});
