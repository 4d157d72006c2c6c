/**
 * What the map page needs first, asked for before it is mounted: the first units (the server reads
 * them while the page's modules and the user's settings load), the base maps to choose from, and
 * MapLibre, whose module and WebGL set-up come before any marker. Started by the member area when
 * the map is opened directly; the page then finds each under way or done instead of asking for it
 * after the one before.
 */
import { queryClient } from '../../app/query-client';
import { mapConfigQuery, prefetchMapUnits } from './api/map-api';
import { loadMapLibre } from './maplibre';

export function loadMapEarly(): void {
  prefetchMapUnits();
  // Failures here are the page's to report: it asks again and shows them.
  void queryClient.prefetchQuery(mapConfigQuery);
  loadMapLibre().catch(() => undefined);
}
