import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unitFor } from './access';
import { listOdometerEntries } from './odometer';
import { toOdometerEntry } from './odometer-views';

export const handler = httpHandler(routes.getOdometerEntries, async ({ auth, params, timeZone }) => {
  const unit = await unitFor(auth, params.imei);
  return (await listOdometerEntries(unit)).map((e) => toOdometerEntry(e, timeZone));
});
