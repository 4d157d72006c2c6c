import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getUnit } from './unit-repository';

export const handler = httpHandler(routes.getLatestPosition, async ({ auth, params }) => {
  const { state } = await getUnit(auth, params.imei);
  return state ? { Latitude: state.lat, Longitude: state.lon } : null;
});
