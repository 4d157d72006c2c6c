/**
 * Consumer of the `report-export` queue (shared/queues.ts): each message is one export job, run by
 * functions/reports/export-run.ts with the producer that builds and renders the report.
 */
import { getPorts } from '../platform/container';
import { exportConsumer } from './export-run';
import { produceExport } from './export-produce';

export const handler = exportConsumer(produceExport, getPorts);
