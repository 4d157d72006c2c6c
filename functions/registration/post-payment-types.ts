import { routes } from '../../shared/routes';
import { paymentTypesFor } from '../../shared/schemas/registration';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { countImeiLookup } from './limits';
import { getInventoryItem, imeiProblemOf } from './registration-repository';

/**
 * The payment methods of the brand, for an IMEI that can be registered. Names are message keys,
 * so the browser shows them in whatever language is current (the request's `lang` is not needed).
 */
export const handler = httpHandler(routes.getPaymentTypes, async ({ body, event, ports }) => {
  await countImeiLookup(event, ports.clock.now());
  const problem = imeiProblemOf(await getInventoryItem(body.imei));
  if (problem) throw new ValidationError({ imei: [problem] });
  return paymentTypesFor(body.subsiteID);
});
