import { routes } from '../../shared/routes';
import { NotFoundError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { accountSensors } from './account-data';
import { listReceiversOfSensor } from './receiver-repository';
import { pushIdsOf, receiverView } from './receiver-service';

export const handler = httpHandler(routes.getBleUnitReceivers, async ({ auth, params }) => {
  // A sensor of another account is answered as a missing one (rule 1).
  if (!(await accountSensors(auth.accountId)).some((s) => s.id === params.deviceId)) throw new NotFoundError();
  const [receivers, pushIds] = await Promise.all([listReceiversOfSensor(auth.accountId, params.deviceId), pushIdsOf(auth.accountId)]);
  return { alarmReceivers: receivers.sort((a, b) => a.name.localeCompare(b.name)).map((r) => receiverView(r, pushIds)) };
});
