/** The command line of `npm run provision`, parsed with node:util's parseArgs. */
import { parseArgs } from 'node:util';
import { isValidImei } from '../../shared/validators/imei';

export const USAGE = `Usage: npm run provision -- [options] IMEI [IMEI ...]

Adds trackers to the inventory, so that they can be registered, and prints the topics each tracker
is configured with (Basic Ingest for what it publishes).

Target (default: the running \`npm start\` of this environment):
  --data-dir <dir>       data directory of that runtime (default: $DATA_DIR or .data)
  --stack <name>         a deployed stack instead (AWS_REGION / AWS_PROFILE as usual); also creates
                         each tracker's IoT thing, certificate and policy attachment
  --out <dir>            where certificates go, one folder per IMEI (default: ./certificates; --stack only)
  --new-certificate      issue another certificate even when the thing has one (--stack only)
  -h, --help             this text`;

export const DEFAULT_CERTIFICATE_DIR = 'certificates';
export const DEFAULT_DATA_DIR = '.data';

export class UsageError extends Error {
  override name = 'UsageError';
}

export type TargetOptions =
  | { readonly kind: 'embedded'; readonly dataDir: string }
  | { readonly kind: 'aws'; readonly stackName: string; readonly outDir: string; readonly newCertificate: boolean };

export interface ProvisionArgs {
  readonly help: boolean;
  /** Distinct, in the order given. */
  readonly imeis: readonly string[];
  readonly target: TargetOptions;
}

export function parseProvisionArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ProvisionArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'data-dir': { type: 'string' },
        stack: { type: 'string' },
        out: { type: 'string' },
        'new-certificate': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const { values, positionals } = parsed;
  const imeis = [...new Set(positionals.map((p) => p.trim()))];
  if (values.help) return { help: true, imeis, target: { kind: 'embedded', dataDir: DEFAULT_DATA_DIR } };
  if (!imeis.length) throw new UsageError('Give at least one IMEI.');

  if (values.stack !== undefined) {
    if (!values.stack) throw new UsageError('--stack needs a stack name.');
    if (values['data-dir'] !== undefined) throw new UsageError('--data-dir is for the embedded runtime; leave it out with --stack.');
    return {
      help: false,
      imeis,
      target: { kind: 'aws', stackName: values.stack, outDir: values.out || DEFAULT_CERTIFICATE_DIR, newCertificate: values['new-certificate'] },
    };
  }
  if (values.out !== undefined || values['new-certificate']) {
    throw new UsageError('--out and --new-certificate apply to a deployed stack (--stack) only.');
  }
  return { help: false, imeis, target: { kind: 'embedded', dataDir: values['data-dir'] || env['DATA_DIR'] || DEFAULT_DATA_DIR } };
}

/** The IMEIs that can go in, and those reported and skipped. */
export function splitImeis(imeis: readonly string[]): { valid: string[]; invalid: string[] } {
  return { valid: imeis.filter(isValidImei), invalid: imeis.filter((i) => !isValidImei(i)) };
}
