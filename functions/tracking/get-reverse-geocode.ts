import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { createGeocodeCache } from './geocode-cache';

const cache = createGeocodeCache();

export const handler = httpHandler(routes.reverseGeocode, async ({ auth, query, ports }) => {
  const address = await cache.reverse(ports.geocoder, query.lat, query.lon, auth.lang, ports.clock.now());
  return { address: address?.label ?? null };
});
