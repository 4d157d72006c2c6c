/**
 * `npm run cost -- --units N --interval S --users U`: the monthly AWS cost of the portal by
 * service, from the synthesized stack (every template of the cloud assembly, nested stacks
 * included: Lambda memory and architecture, table billing modes and indexes, the Kinesis stream's
 * mode, the schedules...), the dated price list (scripts/cost/prices-*.json), the measured item
 * sizes (scripts/cost/item-sizes.json) and the usage assumptions, which it prints. Then the same
 * for 1,000, 10,000 and 100,000 units, the target (at most $0.05 per unit-month at 10,000 units)
 * and notes on what a design choice would save. The model is scripts/cost/model.ts.
 *
 *   npm run cost -- --units 10000                      synthesizes into a temporary directory first
 *   npm run cost -- --units 10000 --assembly cdk.out   reads an existing cloud assembly
 *   npm run cost -- --check                            exit 1 when the target is missed
 *   npm run cost -- --units 100000 --write-capacity    regenerates the figures in docs/capacity.md
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../infra/bundling/bundle';
import { DEFAULT_REGION } from '../infra/config';
import { readAssembly } from './cost/assembly';
import { capacityMarkdown, CAPACITY_BEGIN, CAPACITY_END } from './cost/capacity';
import { defaultAssumptions, type Assumptions, type ItemSizes } from './cost/model';
import { PRICES_FILE, readPriceList } from './cost/prices';
import { assumptionLines, costTable, designNotes, run, streamWarning, summaryRows, summaryText, targetCheck, type ModelInputs } from './cost/report';
import { runsPerMonth } from './cost/schedule-runs';

const { values: flags } = parseArgs({
  options: {
    units: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '30' },
    users: { type: 'string' },
    'units-per-account': { type: 'string' },
    // Basic Ingest is what `npm run provision` configures trackers with; --no-basic-ingest prices the plain topics.
    'basic-ingest': { type: 'boolean', default: false },
    'no-basic-ingest': { type: 'boolean', default: false },
    // Ingest publishes live only while the account is watched (decision 0051); --live-always prices a publish per position.
    'live-always': { type: 'boolean', default: false },
    records: { type: 'string' },
    assembly: { type: 'string' },
    check: { type: 'boolean', default: false },
    'write-capacity': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log(
    'npm run cost -- [--units 10000] [--interval 30 s] [--users units/10] [--units-per-account 200] [--records 1 per message] [--no-basic-ingest: trackers on the plain topics, not Basic Ingest as provisioned] [--live-always: a live publish per position, watched or not] [--assembly <cloud assembly dir>: skip the synth] [--check: exit 1 when the target is missed] [--write-capacity: regenerate docs/capacity.md\'s figures]',
  );
  process.exit(0);
}

const positive = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name} must be a positive number, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return n;
};
const units = positive('units', flags.units) as number;
const overrides: { -readonly [K in keyof Assumptions]?: Assumptions[K] } & { units: number } = { units: Math.round(units), intervalSeconds: positive('interval', flags.interval) as number };
const users = positive('users', flags.users);
if (users !== undefined) overrides.users = Math.round(users);
const perAccount = positive('units-per-account', flags['units-per-account']);
if (perAccount !== undefined) overrides.unitsPerAccount = perAccount;
const records = positive('records', flags.records);
if (records !== undefined) overrides.recordsPerMessage = Math.round(records);
if (flags['basic-ingest'] && flags['no-basic-ingest']) {
  console.error('--basic-ingest and --no-basic-ingest exclude each other');
  process.exit(2);
}
if (flags['no-basic-ingest']) overrides.basicIngest = false;
if (flags['live-always']) overrides.liveOnlyWhileWatched = false;
if (flags['basic-ingest']) overrides.basicIngest = true;
const assumptions = defaultAssumptions(overrides);

let assemblyDir = flags.assembly;
let temporary: string | undefined;
if (!assemblyDir) {
  temporary = mkdtempSync(join(tmpdir(), 'cost-assembly-'));
  assemblyDir = temporary;
  console.error(`Synthesizing the stack into ${temporary} (npx cdk synth; --assembly <dir> reads an existing one)...`);
  execFileSync('npx', ['cdk', 'synth', '--quiet', '--output', temporary], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
try {
  const inventory = readAssembly(assemblyDir);
  const prices = readPriceList();
  const sizes = JSON.parse(readFileSync(new URL('./cost/item-sizes.json', import.meta.url), 'utf8')) as ItemSizes;
  const inputs: ModelInputs = { inventory, prices, sizes, runsPerMonth };
  const e = run(inputs, assumptions);
  const target = targetCheck(inputs, assumptions);
  const stream = inventory.streams[0];
  const warning = streamWarning(inputs, e);
  const out = [
    `Monthly AWS cost of the tracking portal, ${prices.currency}`,
    `  stack: ${inventory.templates.length} template(s) in ${flags.assembly ?? 'a fresh synth'}: ${inventory.templates.join(', ')}`,
    `         ${inventory.functions.length} functions, ${inventory.tables.length} tables, Kinesis ${stream ? `${stream.mode === 'ON_DEMAND' ? 'on demand' : `provisioned, ${stream.shards} shard(s)`}` : 'none'}, ${inventory.streamConsumers} enhanced fan-out consumer(s), ${inventory.alarms} alarms, ${inventory.dashboards} dashboards`,
    `  prices: ${PRICES_FILE.replace(`${REPO_ROOT}/`, '')} (${prices.date}): ${prices.region} list prices${prices.region === DEFAULT_REGION ? '' : `; the portal deploys to ${DEFAULT_REGION} by default, see the file's regionNote before quoting`}`,
    `  item sizes: scripts/cost/item-sizes.json (measured ${sizes.measured})`,
    '',
    'Assumptions:',
    ...assumptionLines(assumptions).map((l) => `  ${l}`),
    '',
    `Cost for ${assumptions.units.toLocaleString('en-US')} units:`,
    costTable(e),
    ...(warning ? ['', `  WARNING: ${warning}`] : []),
    '',
    'Summary (the same assumptions, users in the same ratio to units):',
    summaryText(summaryRows(inputs, assumptions)),
    '',
    `  ${target.text}`,
    '',
    `Notes (at ${assumptions.units.toLocaleString('en-US')} units; each saving is the model run with that one change):`,
    ...designNotes(inputs, assumptions).map((n) => `  - ${n}`),
  ];
  console.log(out.join('\n'));

  if (flags['write-capacity']) {
    const file = join(REPO_ROOT, 'docs', 'capacity.md');
    const doc = readFileSync(file, 'utf8');
    const begin = doc.indexOf(CAPACITY_BEGIN);
    const end = doc.indexOf(CAPACITY_END);
    if (begin < 0 || end < begin) throw new Error(`docs/capacity.md has no ${CAPACITY_BEGIN} ... ${CAPACITY_END} block`);
    const command = `npm run cost -- --units ${assumptions.units} --interval ${assumptions.intervalSeconds}${users !== undefined ? ` --users ${assumptions.users}` : ''} --write-capacity`;
    writeFileSync(file, `${doc.slice(0, begin)}${CAPACITY_BEGIN}\n${capacityMarkdown(inputs, assumptions, command)}\n${doc.slice(end)}`);
    console.error(`\nWrote the figures of docs/capacity.md (${command}).`);
  }
  if (flags.check && !target.met) process.exitCode = 1;
} finally {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
}
