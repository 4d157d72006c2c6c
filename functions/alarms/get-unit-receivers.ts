import { routes } from '../../shared/routes';
import { NotFoundError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { accountUnit } from './account-data';
import { listReceiversOfUnit } from './receiver-repository';
import { pushIdsOf, receiverView } from './receiver-service';

export const handler = httpHandler(routes.getGpsUnitReceivers, async ({ auth, params }) => {
  // Another account's unit is answered as a missing one (rule 1).
  if (!(await accountUnit(auth.accountId, params.deviceId))) throw new NotFoundError();
  const [receivers, pushIds] = await Promise.all([listReceiversOfUnit(auth.accountId, params.deviceId), pushIdsOf(auth.accountId)]);
  return { alarmReceivers: receivers.sort((a, b) => a.name.localeCompare(b.name)).map((r) => receiverView(r, pushIds)) };
});
