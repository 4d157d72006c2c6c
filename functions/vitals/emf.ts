/**
 * The web vitals as CloudWatch metrics in the embedded metric format: one JSON log line per route
 * and navigation type of a report, written through the logger, which CloudWatch Logs turns into
 * metrics of the namespace TrackingPortal/WebVitals with the dimension sets [["Route"], []] (a
 * series per route and one over all). No PutMetricData call is made. Brand, device class and
 * navigation type ride along as properties, searchable in Logs Insights but no dimensions, so the
 * number of series stays the number of routes.
 */
import { WEB_VITALS_NAMESPACE, type VitalName, type VitalsBatch } from '../../shared/web-vitals';
import { logger } from '../platform/logger';

const units: Readonly<Record<VitalName, 'Milliseconds' | 'None'>> = { LCP: 'Milliseconds', INP: 'Milliseconds', TTFB: 'Milliseconds', CLS: 'None' };

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

/** The EMF documents of one report: one per route and navigation type, each metric's values as an array. */
export function emfDocuments(batch: VitalsBatch, now: Date): EmfDocument[] {
  const groups = new Map<string, EmfDocument>();
  for (const entry of batch.entries) {
    const key = `${entry.route}\n${entry.navigationType}`;
    let doc = groups.get(key);
    if (!doc) {
      doc = {
        _aws: { Timestamp: now.getTime(), CloudWatchMetrics: [{ Namespace: WEB_VITALS_NAMESPACE, Dimensions: [['Route'], []], Metrics: [] }] },
        Route: entry.route,
        Brand: batch.brand,
        Device: batch.device,
        NavigationType: entry.navigationType,
      };
      groups.set(key, doc);
    }
    const metrics = doc._aws.CloudWatchMetrics[0].Metrics;
    if (!metrics.some((m) => m.Name === entry.name)) {
      metrics.push({ Name: entry.name, Unit: units[entry.name] });
      doc[entry.name] = [];
    }
    (doc[entry.name] as number[]).push(entry.value);
  }
  return [...groups.values()];
}

// Metrics are data, not diagnostics: written at INFO whatever LOG_LEVEL says.
const metricLogger = logger.createChild({ logLevel: 'INFO' });

/** Writes the report's metrics as EMF log lines. */
export function emitVitalMetrics(batch: VitalsBatch, now: Date): void {
  for (const doc of emfDocuments(batch, now)) metricLogger.info('web vitals', doc);
}
