import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { getUnit } from '../tracking/unit-repository';
import { sendCommand } from './command-service';
import { assertNotLockedFor } from './lock-rules';

export const handler = httpHandler(routes.postUnitCommand, async ({ auth, params, body, ports }) => {
  const unit = await getUnit(auth, params.imei);
  assertNotLockedFor(auth, unit);
  return created(await sendCommand(unit, body, ports));
});
