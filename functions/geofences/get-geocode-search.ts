/**
 * Address search for the map editors (geofences, places): the Geocoder port's `search` (Amazon
 * Location on AWS, the offline gazetteer embedded), at most SEARCH_RESULTS answers.
 */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';

export const SEARCH_RESULTS = 10;

export const handler = httpHandler(routes.searchAddresses, async ({ auth, query, ports }) => {
  const near = query.lat !== undefined && query.lon !== undefined ? { lat: query.lat, lon: query.lon } : undefined;
  const found = await ports.geocoder.search(query.q, auth.lang, near);
  return found.slice(0, SEARCH_RESULTS).map((a) => ({ label: a.label, lat: a.lat, lon: a.lon }));
});
