/**
 * The web vitals as CloudWatch metrics in the embedded metric format: JSON log lines through the
 * logger, which CloudWatch Logs turns into metrics of the namespace TrackingPortal/WebVitals with
 * the one dimension set [] (a series per vital over every route: `VITAL_DIMENSION_SETS`). No
 * PutMetricData call is made. The route, brand, device class and navigation type ride along as
 * properties, not dimensions: a series per route cost a custom metric each ($0.30 a month, 4 per
 * route pattern) that no alarm read, so the dashboard's per-route table is a Logs Insights query
 * of these lines instead (infra/constructs/monitoring.ts `WEB_VITALS_ROUTE_QUERY`), and the support
 * page has each route's histograms (store.ts). Each value is a plain number, one document per
 * route, navigation type and value of a metric, so that Insights' pct() reads it.
 */
import { WEB_VITALS_NAMESPACE, type VitalName, type VitalsBatch } from '../../shared/web-vitals';
import { logger } from '../platform/logger';

const units: Readonly<Record<VitalName, 'Milliseconds' | 'None'>> = { LCP: 'Milliseconds', INP: 'Milliseconds', TTFB: 'Milliseconds', CLS: 'None' };

/** The dimension sets of the vitals' metrics: one series per vital (the cost model counts them). */
export const VITAL_DIMENSION_SETS: readonly (readonly string[])[] = [[]];

export interface EmfDocument {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: [{ Namespace: string; Dimensions: string[][]; Metrics: { Name: VitalName; Unit: 'Milliseconds' | 'None' }[] }];
  };
  Route: string;
  Brand: number;
  Device: string;
  NavigationType: string;
  [metric: string]: unknown;
}

/**
 * The EMF documents of one report: per route and navigation type, each metric once with its value;
 * a second value of a metric there (INP twice) goes into another document.
 */
export function emfDocuments(batch: VitalsBatch, now: Date): EmfDocument[] {
  const docs: EmfDocument[] = [];
  const groups = new Map<string, EmfDocument[]>();
  for (const entry of batch.entries) {
    const key = `${entry.route}\n${entry.navigationType}`;
    const group = groups.get(key) ?? [];
    groups.set(key, group);
    let doc = group.find((d) => !(entry.name in d));
    if (!doc) {
      doc = {
        _aws: { Timestamp: now.getTime(), CloudWatchMetrics: [{ Namespace: WEB_VITALS_NAMESPACE, Dimensions: VITAL_DIMENSION_SETS.map((d) => [...d]), Metrics: [] }] },
        Route: entry.route,
        Brand: batch.brand,
        Device: batch.device,
        NavigationType: entry.navigationType,
      };
      group.push(doc);
      docs.push(doc);
    }
    doc._aws.CloudWatchMetrics[0].Metrics.push({ Name: entry.name, Unit: units[entry.name] });
    doc[entry.name] = entry.value;
  }
  return docs;
}

// Metrics are data, not diagnostics: written at INFO whatever LOG_LEVEL says.
const metricLogger = logger.createChild({ logLevel: 'INFO' });

/** Writes the report's metrics as EMF log lines. */
export function emitVitalMetrics(batch: VitalsBatch, now: Date): void {
  for (const doc of emfDocuments(batch, now)) metricLogger.info('web vitals', doc);
}
