/**
 * IoT rules `trackerTelemetry` (trackers/{imei}/telemetry) and `teltonikaData` ({imei}/data):
 * positions from native and Teltonika trackers, and Teltonika command answers.
 *
 * Takes one rule event, as IoT Core's Lambda action delivers it, or an array of them, as the
 * embedded rule bridge hands over the messages of a short window (`acceptsBatches` tells it so;
 * infra/local/broker.ts); an array is answered with one result per event, in order.
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
