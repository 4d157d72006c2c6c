/**
 * `npm run provision -- IMEI...`: checks every IMEI, opens the target and provisions the valid
 * ones one by one. An invalid IMEI is reported and skipped, one that is already in the inventory
 * is reported as such, and a failure on one tracker does not stop the others.
 *
 * Exit code: 0 when every IMEI is in the inventory now (added or already there), 1 when any was
 * invalid or failed, 2 when nothing could be done (usage, no running portal, no stack).
 */
import { relative } from 'node:path';
import { USAGE, UsageError, parseProvisionArgs, splitImeis, type TargetOptions } from './args';
import { openAwsTarget } from './aws';
import { openEmbeddedTarget } from './embedded';
import { ProvisionError, type ProvisionTarget, type TrackerOutcome } from './target';

export interface ProvisionIo {
  out(line: string): void;
  err(line: string): void;
}

export interface ProvisionDeps {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => Date;
  /** Base of the relative paths shown (the working directory). */
  readonly cwd?: string;
}

const INVALID = 'skipped: not a valid IMEI (15 digits, the last a Luhn check digit)';

function describe(outcome: TrackerOutcome, cwd: string): string[] {
  const parts: string[] = [];
  const extra: string[] = [];
  const { iot, inventory, topics } = outcome;
  if (iot) {
    parts.push(iot.thing === 'created' ? 'thing created' : 'thing exists');
    if (iot.kept.length) parts.push(`certificate ${iot.kept.join(', ')} kept${iot.issued ? '' : ' (--new-certificate issues another)'}`);
    if (iot.issued) {
      parts.push(`certificate ${iot.issued.certificateId} issued`);
      const [cert, key, connection] = iot.issued.files;
      extra.push(`files in ${relative(cwd, iot.issued.dir) || '.'}/: ${cert}, ${key} (private key, mode 0600), ${connection}`);
    }
  }
  if (inventory.status === 'added') parts.push('added to the inventory');
  else {
    const since = inventory.provisionedAt ? ` since ${inventory.provisionedAt}` : '';
    const registered = inventory.registered === undefined ? '' : inventory.registered ? ', registered' : ', not registered yet';
    parts.push(`already in the inventory${since}${registered}`);
  }
  extra.push(`publishes positions to ${topics.telemetry}`, `publishes command answers to ${topics.ack}`, `receives commands on ${topics.commands}`);
  return [parts.join('; '), ...extra];
}

function openTarget(target: TargetOptions, now?: () => Date): Promise<ProvisionTarget> {
  return target.kind === 'embedded' ? openEmbeddedTarget(target.dataDir, now) : openAwsTarget(target, now);
}

export async function runProvision(argv: readonly string[], io: ProvisionIo, deps: ProvisionDeps = {}): Promise<number> {
  let args;
  try {
    args = parseProvisionArgs(argv, deps.env ?? process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    io.out(USAGE);
    return 0;
  }

  const cwd = deps.cwd ?? process.cwd();
  const { valid, invalid } = splitImeis(args.imeis);
  const width = Math.max(15, ...args.imeis.map((i) => i.length));
  const line = (imei: string, text: string) => `  ${imei.padEnd(width)}  ${text}`;
  const continuation = (text: string) => `  ${''.padEnd(width)}  ${text}`;
  const reportInvalid = () => invalid.forEach((imei) => io.err(line(imei, INVALID)));

  let target: ProvisionTarget | null = null;
  if (valid.length) {
    try {
      target = await openTarget(args.target, deps.now);
    } catch (e) {
      if (!(e instanceof ProvisionError)) throw e;
      reportInvalid();
      io.err(e.message);
      return 2;
    }
  }
  if (!target) {
    reportInvalid();
    io.err(`Nothing provisioned: ${invalid.length} invalid IMEI(s).`);
    return 1;
  }

  const counts = { added: 0, exists: 0, failed: 0 };
  try {
    io.out(`Provisioning ${valid.length} tracker(s) into ${target.description}:`);
    for (const imei of args.imeis) {
      if (invalid.includes(imei)) {
        io.err(line(imei, INVALID));
        continue;
      }
      try {
        const outcome = await target.provision(imei);
        counts[outcome.inventory.status]++;
        const [first = '', ...rest] = describe(outcome, cwd);
        io.out(line(imei, first));
        for (const more of rest) io.out(continuation(more));
      } catch (e) {
        counts.failed++;
        io.err(line(imei, `failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`));
      }
    }
  } finally {
    target.close();
  }

  io.out(`Done: ${counts.added} added, ${counts.exists} already in the inventory, ${invalid.length} invalid, ${counts.failed} failed.`);
  for (const note of target.notes ?? []) io.out(note);
  if (counts.added + counts.exists) {
    io.out(
      'Configure each tracker with the topics above: it publishes through Basic Ingest ($aws/rules/<rule>/...), straight to the IoT rule ' +
        "without the broker's messaging charge; the plain topics of docs/api.md stay accepted.",
    );
  }
  return invalid.length || counts.failed ? 1 : 0;
}
