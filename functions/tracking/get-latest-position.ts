import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getUnit } from './unit-repository';
import { assertNotLockedFor } from '../units/lock-rules';

export const handler = httpHandler(routes.getLatestPosition, async ({ auth, params }) => {
  const unit = await getUnit(auth, params.imei);
  assertNotLockedFor(auth, unit);
  const { state } = unit;
  return state ? { Latitude: state.lat, Longitude: state.lon } : null;
});
