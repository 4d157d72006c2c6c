import { routes } from '../../shared/routes';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { countImeiLookup } from './limits';
import { getInventoryItem, imeiProblemOf } from './registration-repository';

/** The query schema checks the format; here: in the inventory and not yet registered. */
export const handler = httpHandler(routes.validateImei, async ({ query, event, ports }) => {
  await countImeiLookup(event, ports.clock.now());
  const problem = imeiProblemOf(await getInventoryItem(query.imei));
  if (problem) throw new ValidationError({ imei: [problem] });
  return null;
});
