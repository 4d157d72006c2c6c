/**
 * Operational metrics as CloudWatch embedded metric format (EMF): one JSON line on stdout per
 * emission, which CloudWatch Logs turns into a metric of the namespace `TrackingPortal` (the
 * stack's alarms read them, infra/constructs/monitoring.ts). The line is written by a console of
 * its own, as Powertools writes its log lines: not prefixed by the Lambda runtime, and not
 * dropped by LOG_LEVEL, since an alarm must not go quiet because logging was turned down.
 *
 * The embedded runtime has no CloudWatch: there the emissions go to the log at debug level.
 */
import { Console } from 'node:console';
import { logger } from './logger';

export const METRICS_NAMESPACE = 'TrackingPortal';

/** The metrics the code emits; the names are the alarms' (docs/operations.md). The cost model counts them. */
export const OPS_METRICS = ['AlertDeliveryFailed', 'DeadLettersWritten'] as const;
export type OpsMetric = (typeof OPS_METRICS)[number];

export interface EmfDocument {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** The EMF document of one count, without dimensions: the alarms watch the stack's total. */
export function emfDocument(name: OpsMetric, count: number, at: number): EmfDocument {
  return {
    _aws: { Timestamp: at, CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: name, Unit: 'Count' }] }] },
    [name]: count,
  };
}

let stdout: Console | undefined;

/** Emits `count` of the metric (nothing for 0). */
export function emitCount(name: OpsMetric, count = 1): void {
  if (count <= 0) return;
  if (process.env['RUNTIME'] !== 'aws') {
    logger.debug('metric', { metric: name, count });
    return;
  }
  stdout ??= new Console({ stdout: process.stdout, stderr: process.stderr });
  stdout.log(JSON.stringify(emfDocument(name, count, Date.now())));
}
