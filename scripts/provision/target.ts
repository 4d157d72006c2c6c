/** What the command needs from a target (the embedded runtime or a deployed stack). */
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

export interface TrackerOutcome {
  readonly inventory: InventoryResult;
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
