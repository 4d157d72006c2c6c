/**
 * IoT rules `trackerTelemetry` (trackers/{imei}/telemetry) and `teltonikaData` ({imei}/data):
 * positions from native and Teltonika trackers, and Teltonika command answers.
 *
 * Takes the rule events of one ingest stream batch at once (`acceptsBatches` tells the stream's
 * dispatcher so, functions/platform/dispatch.ts), or a single one; an array is answered with one
 * result per event, in order.
 */
import type { IotRuleEvent } from '../../shared/iot-rules';
import { getPorts } from '../platform/container';
import { ingestMessage, ingestMessages, type IngestResult } from './ingest-message';

async function handle(event: IotRuleEvent): Promise<IngestResult>;
async function handle(events: readonly IotRuleEvent[]): Promise<IngestResult[]>;
async function handle(input: IotRuleEvent | readonly IotRuleEvent[]): Promise<IngestResult | IngestResult[]> {
  return Array.isArray(input) ? ingestMessages(input, getPorts()) : ingestMessage(input as IotRuleEvent, getPorts());
}

export const handler = Object.assign(handle, { acceptsBatches: true as const });
