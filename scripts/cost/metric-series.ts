/**
 * The custom metric series the code publishes through the embedded metric format, counted from
 * the code: the operational counts (functions/platform/metrics.ts, no dimension) and the web
 * vitals (functions/vitals/emf.ts: a series per vital and dimension set, a set with `Route` once
 * per route pattern of the web app). CloudWatch bills each series for the hours it is emitted; the
 * model counts them all month.
 */
import { OPS_METRICS } from '../../functions/platform/metrics';
import { VITAL_DIMENSION_SETS } from '../../functions/vitals/emf';
import { webRoutePatterns } from '../../shared/web-routes';
import { vitalNames } from '../../shared/web-vitals';

/** Series per vital of dimension sets: [] is one, ['Route'] one per route pattern. */
export function vitalSeriesPerMetric(dimensionSets: readonly (readonly string[])[], routes: number = webRoutePatterns.length): number {
  return dimensionSets.reduce((n, set) => {
    const unknown = set.filter((d) => d !== 'Route');
    if (unknown.length) throw new Error(`the cost model does not know how many values the dimension ${unknown.join(', ')} takes`);
    return n + (set.includes('Route') ? routes : 1);
  }, 0);
}

export function customMetricSeries(dimensionSets: readonly (readonly string[])[] = VITAL_DIMENSION_SETS, routes: number = webRoutePatterns.length): number {
  return OPS_METRICS.length + vitalNames.length * vitalSeriesPerMetric(dimensionSets, routes);
}
