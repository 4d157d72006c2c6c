import { routes } from '../../shared/routes';
import { COMMANDS_LIST_LIMIT } from '../../shared/schemas/commands';
import { httpHandler } from '../platform/http';
import { getUnit } from '../tracking/unit-repository';
import { listCommands } from './command-repository';
import { assertNotLockedFor } from './lock-rules';

export const handler = httpHandler(routes.getUnitCommands, async ({ auth, params }) => {
  const unit = await getUnit(auth, params.imei);
  assertNotLockedFor(auth, unit);
  return listCommands(unit.imei, unit.accountId, COMMANDS_LIST_LIMIT);
});
