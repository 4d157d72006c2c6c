/** What the command needs from a target (the embedded runtime or a deployed stack). */
import { trackerBasicIngestTopics } from '../../shared/iot-rules';
import { trackerTopic } from '../../shared/mqtt-topics';
import type { InventoryResult } from './inventory';

/** A problem that stops the whole run (no runtime, no stack); shown without a stack trace. */
export class ProvisionError extends Error {
  override name = 'ProvisionError';
}

export interface IotOutcome {
  readonly thing: 'created' | 'existing';
  /** The certificate issued now, with where its files went. */
  readonly issued?: { readonly certificateId: string; readonly dir: string; readonly files: readonly string[] };
  /** Certificates the thing already had, kept (their private keys are wherever they were put). */
  readonly kept: readonly string[];
}

/**
 * The topics a tracker is configured with: it publishes through Basic Ingest (straight to the IoT
 * rule, no messaging charge; docs/decisions/0003-ingest-path.md) and receives its commands on the
 * plain topic. The plain upward topics stay allowed (docs/api.md), these are what we hand out.
 */
export interface TrackerTopics {
  /** Native positions: `$aws/rules/<stack>_trackerTelemetry/trackers/<imei>/telemetry`. */
  readonly telemetry: string;
  /** Native command answers: `$aws/rules/<stack>_commandAck/trackers/<imei>/ack`. */
  readonly ack: string;
  /** A Teltonika device whose topic can be set: `$aws/rules/<stack>_teltonikaData/<imei>/data`. */
  readonly teltonikaData: string;
  /** Where native commands arrive (subscribe). */
  readonly commands: string;
}

/** The topics of `imei` for the rules named after `stackName` (a deployed stack's, or the embedded runtime's). */
export function trackerTopicsFor(stackName: string, imei: string): TrackerTopics {
  const basic = trackerBasicIngestTopics(stackName, imei);
  const need = (name: 'telemetry' | 'ack' | 'teltonikaData'): string => {
    const topic = basic[name];
    if (!topic) throw new Error(`no IoT rule listens on the ${name} topic`);
    return topic;
  };
  return { telemetry: need('telemetry'), ack: need('ack'), teltonikaData: need('teltonikaData'), commands: trackerTopic('nativeCommands', imei) };
}

export interface TrackerOutcome {
  readonly inventory: InventoryResult;
  /** What the tracker publishes to and subscribes to. */
  readonly topics: TrackerTopics;
  /** Only on AWS. */
  readonly iot?: IotOutcome;
}

export interface ProvisionTarget {
  /** One line for the operator: where the trackers go. */
  readonly description: string;
  /** Shown after the run, e.g. how trackers connect. */
  readonly notes?: readonly string[];
  provision(imei: string): Promise<TrackerOutcome>;
  close(): void;
}
