import { routes } from '../../../shared/routes';
import { httpHandler } from '../../platform/http';
import { unitFor } from '../../trips/access';
import { listOperatingHoursEntries, toOperatingHoursEntry } from './operating-hours';

export const handler = httpHandler(routes.getOperatingHoursEntries, async ({ auth, params, timeZone }) => {
  const unit = await unitFor(auth, params.imei);
  return (await listOperatingHoursEntries(unit)).map((e) => toOperatingHoursEntry(e, timeZone));
});
