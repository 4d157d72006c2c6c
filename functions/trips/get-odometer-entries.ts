import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unlockedUnitFor } from './access';
import { listOdometerEntries } from './odometer';
import { toOdometerEntry } from './odometer-views';

export const handler = httpHandler(routes.getOdometerEntries, async ({ auth, params, timeZone }) => {
  const unit = await unlockedUnitFor(auth, params.imei);
  return (await listOdometerEntries(unit)).map((e) => toOdometerEntry(e, timeZone));
});
