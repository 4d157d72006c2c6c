import { routes } from '../../shared/routes';
import { NotFoundError } from '../platform/errors';
import { httpHandler } from '../platform/http';

/** BLE sensors do not exist yet (another issue): no sensor id is the account's. */
export const handler = httpHandler(routes.getBleUnitReceivers, async () => {
  throw new NotFoundError();
});
