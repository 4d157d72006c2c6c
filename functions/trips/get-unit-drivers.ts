import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unitFor } from './access';
import { accountDrivers } from './people';

export const handler = httpHandler(routes.getUnitDrivers, async ({ auth, params }) => {
  const unit = await unitFor(auth, params.imei);
  return accountDrivers(unit.accountId, auth.lang);
});
