/**
 * IoT rules `trackerTelemetry` (trackers/{imei}/telemetry) and `teltonikaData` ({imei}/data):
 * positions from native and Teltonika trackers, and Teltonika command answers.
 */
import type { IotRuleEvent } from '../../shared/iot-rules';
import { getPorts } from '../platform/container';
import { ingestMessage, type IngestResult } from './ingest-message';

export const handler = async (event: IotRuleEvent): Promise<IngestResult> => ingestMessage(event, getPorts());
