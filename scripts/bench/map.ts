/**
 * `npm run bench:map`: the real-time map in headless Chromium with a large fleet and live traffic.
 *
 *   npm run bench:map -- --units 50000 --rate 5000 --duration 30
 *
 * 1. Starts an in-memory embedded runtime (its own DynamoDB Local, broker, HTTP server and the built
 *    web app in web/dist, built first when missing) and writes one account with an admin and N units
 *    straight into DynamoDB (batch writes; each units item carries the `state` ingest would store).
 * 2. Logs in as that admin through the login form in headless Chromium (playwright-core, Debian's
 *    /usr/bin/chromium; WebGL comes from SwiftShader, see CHROMIUM_ARGS) and lets the page it
 *    lands on load: the map with every unit, then the service worker's install (web/src/pwa/
 *    page-loads.ts). Timed from its start, that first visit would measure the install and the
 *    login's redirects too; opened again at once, the runtime would still be answering the
 *    landing's pages (a browser abandoning a request does not stop its query) while the map is
 *    timed. Then, as a returning user does, it opens /user/realtime-tracking and waits until `[data-testid="realtime-map"]` says in
 *    `data-units-drawn` that all N units are drawn (the page notes, from its navigation start, when
 *    the first units and when all were drawn), then until the page has been quiet for 3 s (no
 *    long task, no shader compiled: the base map may still be loading). The page may not be built
 *    yet: the bench keeps polling (reloading now and then) for up to --wait seconds.
 * 3. Publishes live positions for `--duration` seconds at `--rate` messages per second, round robin
 *    over the fleet (10 000 units reporting every 10 s = 1 000 messages/s). They go out through the
 *    runtime's LiveBus port on the live topics `live/<accountId>/units/<imei>`, exactly the messages
 *    ingest publishes, so the browser is measured and not ingest (npm run bench:ingest measures that).
 * 4. Meanwhile the page collects long tasks (PerformanceObserver 'longtask'), counts frames with
 *    requestAnimationFrame, the frames MapLibre draws and the shader programs it links (WebGL calls
 *    wrapped before the app loads); the bench counts the MQTT PUBLISH packets arriving on the page's
 *    WebSocket and reads from /proc where the machine's CPU went (the browser, the runtime and this
 *    publisher, anything else).
 *
 * Prints, each against its target: the time to the first markers (2 s) and to all units drawn
 * (5 s) after opening the page, the longest main-thread task while loading (200 ms) and while
 * live (50 ms), the share of updates delivered (99 %), and the pages of GET /realtime/units?view=map
 * as the map reads them: bytes per unit, the largest page and the largest page at 100,000 units
 * against Lambda's 6 MB answer limit. Also frames per second, map redraws, shader programs linked
 * while live, CPU shares and the size of the full answer without a query (the contract, not read
 * by the map). Exits 1 when a target is missed, 2 when the map never drew the fleet.
 *
 * To find what a long task was: `--trace FILE` records the live phase as DevTools does (open it in
 * the Performance panel; web/dist has hidden source maps), `--profile FILE` a CPU profile of the
 * page's main thread alone; both slow the page down a little. `--web DIR` serves another build, to
 * compare two versions of the app on the same machine in turn.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Page, WebSocket } from 'playwright-core';
import { en } from '../../shared/i18n/en';
import { REALTIME_PAGE_MAX } from '../../shared/schemas/tracking';
import { getPorts } from '../../functions/platform/container';
import { CHROMIUM_BASE_ARGS } from '../../test/support/chromium';
import { createTestUser, loginAs } from '../../test/support/sessions';
import { ensureWebBuilt, startBrowserBench } from './browser-bench';
import { nextMove, seedFleet } from './map-fleet';

const TARGET = { firstMarkersMs: 2000, allDrawnMs: 5000, longestLoadingTaskMs: 200, longestTaskMs: 50, deliveredShare: 0.99 };
/** The fleet the answer's pages are checked for besides the one measured. */
const PROJECTED_UNITS = 100_000;
/** Lambda's limit for a synchronous answer: GET /realtime/units must stay under it on AWS. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

/**
 * Debian's Chromium gives WebGL 2 headless through ANGLE on SwiftShader (a CPU Vulkan device), even
 * with --disable-gpu; these flags ask for it explicitly, as newer versions want for the software
 * fallback. The GPU process rasterises on the CPU, off the page's main thread, so long tasks still
 * measure the page's own work. Background throttling would distort the frame count.
 */
const CHROMIUM_ARGS = [
  ...CHROMIUM_BASE_ARGS,
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];
const VIEWPORT = { width: 1280, height: 800 };
/** How long the page must be quiet after drawing the fleet before the live phase starts. */
const QUIET_MS = 3000;
/**
 * --trace: what DevTools' performance panel records (tasks, script, GC, frames) with V8's sampling
 * profiler, so each long task can be traced to the functions that ran in it (web/dist keeps hidden
 * source maps to name them).
 */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'blink.user_timing',
  'disabled-by-default-v8.cpu_profiler',
];

const { values: flags } = parseArgs({
  options: {
    units: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '30' },
    wait: { type: 'string', default: '600' },
    web: { type: 'string' },
    trace: { type: 'string' },
    'trace-load': { type: 'string' },
    profile: { type: 'string' },
    'profile-load': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log('npm run bench:map -- [--units 10000] [--rate 1000 messages/s] [--duration 30 s] [--wait 600 s for the map to draw every unit] [--web DIR: serve another build of the web app, e.g. to compare two versions] [--trace FILE: a Chromium trace of the live phase] [--trace-load FILE: the same while the map loads] [--profile FILE: a CPU profile of the page\'s main thread while live (.cpuprofile)] [--profile-load FILE: the same while the map loads]');
  process.exit(0);
}
const unitCount = Number(flags.units);
const rate = Number(flags.rate);
const durationS = Number(flags.duration);
const waitS = Number(flags.wait);
for (const [name, value] of Object.entries({ units: unitCount, rate, duration: durationS, wait: waitS })) {
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (text: string) => console.log(`[${(now() / 1000).toFixed(1).padStart(6)} s] ${text}`);

/**
 * Counts MQTT PUBLISH packets in a WebSocket's binary frames. A packet may span frames and a frame
 * may carry several, so the bytes are read as a stream: fixed header (type in the high nibble of
 * the first byte), remaining length as a variable-length integer (MQTT 3.1.1/5 section 2.2.3).
 */
function publishCounter() {
  let pending: Buffer = Buffer.alloc(0);
  let count = 0;
  return {
    get count() {
      return count;
    },
    feed(frame: Buffer) {
      pending = pending.length ? Buffer.concat([pending, frame]) : frame;
      for (;;) {
        let length = 0;
        let multiplier = 1;
        let offset = 1;
        for (;;) {
          if (offset >= pending.length) return;
          const byte = pending[offset++] as number;
          length += (byte & 0x7f) * multiplier;
          multiplier *= 128;
          if (!(byte & 0x80)) break;
          if (offset > 4) throw new Error('malformed MQTT remaining length');
        }
        if (pending.length < offset + length) return;
        if ((pending[0] as number) >> 4 === 3) count++;
        pending = pending.subarray(offset + length);
      }
    },
  };
}

/**
 * Installed before the app's own scripts: long tasks from the start, frames on demand. Plain
 * JavaScript text, because tsx compiles this file with names kept (esbuild's `__name` helper),
 * which a function serialised into the page would call without having it.
 */
const PAGE_PROBE = `(() => {
  const probe = { longTasks: [], frames: 0, longestFrameMs: 0, counting: false, mapDraws: 0, programsLinked: 0, lastLinkAt: 0, firstLinkAt: null, contextAt: null, firstDrawnAt: null, drawn: [] };
  // The page loads more modules and calls than the default 250 timings hold.
  performance.setResourceTimingBufferSize(5000);
  // When MapLibre made its WebGL context.
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    if (probe.contextAt === null && String(kind).startsWith('webgl')) probe.contextAt = performance.now();
    return getContext.call(this, kind, ...rest);
  };
  // When the map says it drew units (data-units-drawn), from the page's navigation start.
  new MutationObserver((records) => {
    for (const record of records) {
      const count = Number(record.target.getAttribute('data-units-drawn') || 0);
      if (count > 0 && probe.firstDrawnAt === null) probe.firstDrawnAt = performance.now();
      if (count > 0 && probe.drawn.at(-1)?.[1] !== count) probe.drawn.push([performance.now(), count]);
    }
  }).observe(document, { attributes: true, attributeFilter: ['data-units-drawn'], subtree: true });
  // MapLibre clears the colour buffer once per map frame it draws.
  const clear = WebGL2RenderingContext.prototype.clear;
  WebGL2RenderingContext.prototype.clear = function (mask) {
    if (probe.counting && mask & this.COLOR_BUFFER_BIT) probe.mapDraws++;
    return clear.call(this, mask);
  };
  // MapLibre compiles and links a shader program the first time a layer needs it: a main-thread stall.
  const link = WebGL2RenderingContext.prototype.linkProgram;
  WebGL2RenderingContext.prototype.linkProgram = function (program) {
    if (probe.counting) probe.programsLinked++;
    probe.lastLinkAt = performance.now();
    if (probe.firstLinkAt === null) probe.firstLinkAt = probe.lastLinkAt;
    return link.call(this, program);
  };
  probe.startFrames = () => {
    probe.counting = true;
    let last = performance.now();
    const tick = (t) => {
      if (!probe.counting) return;
      probe.frames++;
      probe.longestFrameMs = Math.max(probe.longestFrameMs, t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  };
  window.__mapBench = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
})();`;
interface Probe {
  longTasks: Array<[number, number]>;
  frames: number;
  longestFrameMs: number;
  mapDraws: number;
  programsLinked: number;
  lastLinkAt: number;
  firstDrawnAt: number | null;
  firstLinkAt: number | null;
  contextAt: number | null;
  /** [time, units drawn] at each change. */
  drawn: Array<[number, number]>;
  counting: boolean;
  startFrames(): void;
}
type ProbeWindow = Window & { __mapBench: Probe };

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every platform Node runs Linux on. */
const TICKS_PER_SECOND = 100;

interface CpuSnapshot {
  at: number;
  /** The whole machine, in ticks: busy, idle, and stolen by the hypervisor. */
  busy: number;
  idle: number;
  steal: number;
  /** CPU ticks of this process and its descendants, by pid: Chromium's processes, DynamoDB Local's JVM, and the rest (this Node process). */
  browser: Map<number, number>;
  database: Map<number, number>;
  runtime: Map<number, number>;
}

/**
 * Where the CPU goes while live: the bench shares the machine with whatever else runs on it, and a
 * long task may come from a busy machine rather than from the page. Linux only (/proc); null elsewhere.
 */
function cpuSnapshot(): CpuSnapshot | null {
  if (!existsSync('/proc/stat')) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const processes = new Map<number, { parent: number; ticks: number; chromium: boolean; java: boolean }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command name in parentheses: state, parent pid, ... user time (12th), system time (13th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const program = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? '';
      const name = program.slice(program.lastIndexOf('/') + 1);
      processes.set(Number(entry), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), chromium: /chrom/i.test(name), java: name === 'java' });
    } catch {
      // Gone meanwhile.
    }
  }
  const browser = new Map<number, number>();
  const database = new Map<number, number>();
  const runtime = new Map<number, number>();
  for (const [pid, info] of processes) {
    let inBrowser = false;
    for (let at: number | undefined = pid; at !== undefined && at > 0; at = processes.get(at)?.parent) {
      inBrowser ||= processes.get(at)?.chromium ?? false;
      if (at === process.pid) {
        (inBrowser ? browser : info.java ? database : runtime).set(pid, info.ticks);
        break;
      }
    }
  }
  return { at: now(), busy: user + nice + system + irq + softirq, idle: idle + iowait, steal, browser, database, runtime };
}

/** CPUs used between two snapshots (1 = one CPU all the time). */
function cpuShares(from: CpuSnapshot, to: CpuSnapshot) {
  const seconds = (to.at - from.at) / 1000;
  const share = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
  const tree = (a: Map<number, number>, b: Map<number, number>) => [...b].reduce((sum, [pid, ticks]) => sum + ticks - (a.get(pid) ?? 0), 0);
  const browser = share(tree(from.browser, to.browser));
  const database = share(tree(from.database, to.database));
  const runtime = share(tree(from.runtime, to.runtime));
  return { browser, database, runtime, other: Math.max(0, share(to.busy - from.busy) - browser - database - runtime), idle: share(to.idle - from.idle), steal: share(to.steal - from.steal) };
}

interface Milestones {
  settings: { asked: number; in: number } | null;
  firstPage: { asked: number; in: number } | null;
  maplibre: { asked: number; in: number } | null;
  context: number | null;
  firstLink: number | null;
}

/** What the first markers waited for, in seconds from opening the page. */
function milestonesLine(m: Milestones): string {
  const s = (ms: number | null | undefined) => (ms === null || ms === undefined ? 'not seen' : `${(ms / 1000).toFixed(2)} s`);
  const call = (name: string, t: { asked: number; in: number } | null) => `${name} asked at ${s(t?.asked)}, in at ${s(t?.in)}`;
  return [call('settings', m.settings), call('first units page', m.firstPage), call('MapLibre module', m.maplibre), `WebGL context at ${s(m.context)}`, `first shader linked at ${s(m.firstLink)}`].join('; ');
}

/** Where the CPUs went, for the report: `node` names what this process did meanwhile. */
function cpuLine(cpu: ReturnType<typeof cpuShares> | null, node: string): string {
  if (!cpu) return 'not measured (no /proc)';
  const stolen = cpu.steal >= 0.01 ? `, stolen ${cpu.steal.toFixed(2)}` : '';
  return `browser ${cpu.browser.toFixed(2)}, ${node} ${cpu.runtime.toFixed(2)}, DynamoDB Local ${cpu.database.toFixed(2)}, other processes ${cpu.other.toFixed(2)}, idle ${cpu.idle.toFixed(2)}${stolen} (CPUs)`;
}

async function drawnUnits(page: Page): Promise<number | null> {
  return page
    .evaluate(() => {
      const map = document.querySelector('[data-testid="realtime-map"]');
      return map ? Number(map.getAttribute('data-units-drawn') ?? 0) : null;
    })
    .catch(() => null);
}

/**
 * Waits until the page logged in to has loaded: when it is the map, until it has drawn `count`
 * units; then until the service worker it registers once the page has settled is active (not at
 * all where the page registers none).
 */
async function settleLanding(page: Page, count: number, timeoutMs: number): Promise<void> {
  const deadline = now() + timeoutMs;
  let noMapSince = now();
  while (now() < deadline) {
    const drawn = await drawnUnits(page);
    if (drawn !== null && drawn >= count) break;
    // A landing without the map: as loaded as it gets once the map has not shown for 5 s.
    if (drawn !== null) noMapSince = now();
    else if (now() - noMapSince > 5000) break;
    await sleep(250);
  }
  const active = () => page.evaluate(async () => (await navigator.serviceWorker?.getRegistration())?.active?.state === 'activated').catch(() => false);
  // It registers 2 s after the page's loads and installs within seconds.
  const installed = Math.min(deadline, now() + 30_000);
  while (now() < installed && !(await active())) await sleep(250);
}

/** Waits until the map has drawn `count` units; milliseconds from the (last) opening of the page. */
async function waitUntilDrawn(page: Page, url: string, count: number, timeoutMs: number): Promise<number> {
  const deadline = now() + timeoutMs;
  let opened = now();
  await page.goto(url);
  let lastNote = now();
  let lastSeen: number | null = null;
  while (now() < deadline) {
    const drawn = await drawnUnits(page);
    lastSeen = drawn;
    if (drawn !== null && drawn >= count) return now() - opened;
    if (now() - lastNote > 30_000) {
      log(drawn === null ? 'no [data-testid="realtime-map"] on the page yet: still waiting for the map page' : `the map has drawn ${drawn} of ${count} units`);
      lastNote = now();
    }
    // A page without the map yet may be rebuilt in web/dist meanwhile: look again now and then.
    if (drawn === null && now() - opened > 60_000) {
      await page.reload();
      opened = now();
    }
    await sleep(250);
  }
  throw new Error(lastSeen === null ? 'the map page never showed [data-testid="realtime-map"]' : `the map drew only ${lastSeen} of ${count} units`);
}

/**
 * Drawn units are not a loaded map: the base map's GeoJSON (Natural Earth, 20 MB) may still be on
 * its way through MapLibre's worker, and its first tiles bring shader compiles and uploads. The live
 * phase starts once the page has had no long task and linked no shader program for `quietMs`.
 */
async function waitUntilQuiet(page: Page, quietMs: number, timeoutMs: number): Promise<number | null> {
  const start = now();
  while (now() - start < timeoutMs) {
    const quietFor = await page.evaluate(() => {
      const probe = (window as unknown as ProbeWindow).__mapBench;
      const last = probe.longTasks.at(-1);
      return performance.now() - Math.max(last ? last[0] + last[1] : 0, probe.lastLinkAt);
    });
    if (quietFor >= quietMs) return now() - start;
    await sleep(250);
  }
  return null;
}

if (flags.web && !existsSync(join(flags.web, 'index.html'))) {
  console.error(`--web ${flags.web}: no index.html there`);
  process.exit(2);
}
if (!flags.web) ensureWebBuilt(log);

log(`starting an in-memory runtime for ${unitCount} units, ${rate} live updates/s for ${durationS} s (the web app as built in ${flags.web ?? 'web/dist'})`);
const { runtime, browser } = await startBrowserBench({ chromiumArgs: CHROMIUM_ARGS, log, ...(flags.web ? { webDir: flags.web } : {}) });
let exitCode: number;
try {
  const owner = await createTestUser();
  const seedStart = now();
  const fleet = await seedFleet(owner.accountId, unitCount);
  log(`seeded ${unitCount} units in ${((now() - seedStart) / 1000).toFixed(1)} s`);

  // What the map reads, page by page as the web app does, and whether each page fits in one Lambda answer on AWS.
  const { token } = await loginAs(owner.username, owner.password);
  const headers = { authorization: `Bearer ${token}` };
  const pages: Array<{ units: number; bytes: number; ms: number }> = [];
  let cursor: string | null = null;
  do {
    const started = now();
    const query = new URLSearchParams({ view: 'map', limit: String(REALTIME_PAGE_MAX), ...(cursor ? { cursor } : {}) });
    const answer = await fetch(`${runtime.url}/api/v1/user/realtime/units?${query.toString()}`, { headers });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`GET /realtime/units?view=map answered ${answer.status}: ${text.slice(0, 300)}`);
    const page = (JSON.parse(text) as { data: { units: unknown[]; next: string | null } }).data;
    pages.push({ units: page.units.length, bytes: Buffer.byteLength(text), ms: now() - started });
    cursor = page.next;
  } while (cursor);
  const pagedUnits = pages.reduce((sum, p) => sum + p.units, 0);
  const pagedBytes = pages.reduce((sum, p) => sum + p.bytes, 0);
  const largestPage = Math.max(...pages.map((p) => p.bytes));
  const bytesPerUnit = pagedBytes / Math.max(1, pagedUnits);
  // At 100,000 units the pages are as full (REALTIME_PAGE_MAX) and their units as large as here.
  const projectedPage = bytesPerUnit * REALTIME_PAGE_MAX;
  log(`GET /realtime/units?view=map: ${pages.length} pages, ${pagedUnits} units, ${(pagedBytes / 1024 / 1024).toFixed(2)} MB in ${pages.reduce((sum, p) => sum + p.ms, 0).toFixed(0)} ms`);
  // The full form's size per unit, from single units (?imei= answers one unit in that form), and
  // the whole answer fetched once only where it can be answered at all: far beyond Lambda's limit
  // it would only keep the runtime busy for its whole timeout.
  const sample = fleet.imeis.slice(0, 20);
  let sampleBytes = 0;
  for (const imei of sample) {
    const one = await fetch(`${runtime.url}/api/v1/user/realtime/units?imei=${imei}`, { headers });
    sampleBytes += Buffer.byteLength(await one.text()) - '{"success":true,"data":[]}'.length;
  }
  const fullBytesPerUnit = sampleBytes / sample.length + 1;
  let answerBytes = fullBytesPerUnit * unitCount;
  let fetchMs: number | null = null;
  if (answerBytes <= LAMBDA_RESPONSE_LIMIT * 1.25) {
    const fullStart = now();
    const full = await fetch(`${runtime.url}/api/v1/user/realtime/units`, { headers });
    answerBytes = (await full.arrayBuffer()).byteLength;
    fetchMs = now() - fullStart;
    log(`GET /realtime/units (no query, the full contract): ${full.status}, ${(answerBytes / 1024 / 1024).toFixed(2)} MB in ${fetchMs.toFixed(0)} ms`);
  }

  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB', timezoneId: 'Europe/Stockholm' });
  await context.addInitScript({ content: PAGE_PROBE });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // What goes wrong in the page shows while waiting, not only in the summary: each kind of console
  // warning or error once (numbers blanked out), with how often it came at the end.
  const consoleKinds = new Map<string, number>();
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const kind = `${message.type()}: ${message.text().slice(0, 300).replace(/\d+/g, 'N')}`;
    const seen = consoleKinds.get(kind) ?? 0;
    consoleKinds.set(kind, seen + 1);
    if (!seen) log(`page console ${kind}`);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400) log(`page got ${response.status()} from ${new URL(response.url()).pathname}`);
  });
  let counter = publishCounter();
  page.on('websocket', (ws: WebSocket) => {
    if (!new URL(ws.url()).pathname.endsWith('/mqtt')) return;
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string') counter.feed(payload);
    });
  });

  await page.goto(`${runtime.url}/`);
  await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(owner.username);
  await page.getByRole('textbox', { name: en.Password, exact: true }).fill(owner.password);
  await page.getByRole('button', { name: en.Login, exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/');
  const landing = new URL(page.url()).pathname;
  await settleLanding(page, unitCount, waitS * 1000);
  log(`logged in as ${owner.username}; the landing page ${landing} has loaded${(await drawnUnits(page)) === null ? '' : ' all units'}; opening the map`);

  const loadProfiler = flags['profile-load'] ? await page.context().newCDPSession(page) : null;
  if (loadProfiler) {
    await loadProfiler.send('Profiler.enable');
    await loadProfiler.send('Profiler.setSamplingInterval', { interval: 500 });
    await loadProfiler.send('Profiler.start');
  }
  if (flags['trace-load']) await browser.startTracing(page, { categories: [...TRACE_CATEGORIES, 'toplevel'] });
  const loadCpuFrom = cpuSnapshot();
  const drawMs = await waitUntilDrawn(page, `${runtime.url}/user/realtime-tracking`, unitCount, waitS * 1000);
  const loadCpuTo = cpuSnapshot();
  log(`the map drew ${unitCount} units ${(drawMs / 1000).toFixed(1)} s after opening`);
  const quietAfterMs = await waitUntilQuiet(page, QUIET_MS, 120_000);
  log(quietAfterMs === null ? `the page was never quiet for ${QUIET_MS / 1000} s in 2 minutes: going live anyway` : `the page was quiet for ${QUIET_MS / 1000} s ${(quietAfterMs / 1000).toFixed(1)} s later`);

  if (loadProfiler && flags['profile-load']) {
    const { profile } = await loadProfiler.send('Profiler.stop');
    writeFileSync(flags['profile-load'], JSON.stringify(profile));
    log(`CPU profile of the loading written to ${flags['profile-load']}`);
  }
  if (flags['trace-load']) {
    writeFileSync(flags['trace-load'], await browser.stopTracing());
    log(`trace of the loading written to ${flags['trace-load']}`);
  }
  if (flags.trace) await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const profiler = flags.profile ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 500 });
    await profiler.send('Profiler.start');
  }
  // Starting V8's profiler stalls the page's next script for a few hundred milliseconds: before the live phase.
  if (flags.trace || profiler) await sleep(1000);
  const liveFrom = await page.evaluate(() => {
    const probe = (window as unknown as ProbeWindow).__mapBench;
    probe.startFrames();
    return performance.now();
  });
  counter = publishCounter();
  const cpuFrom = cpuSnapshot();
  const live = getPorts().live;
  let sent = 0;
  let failed = 0;
  let next = 0;
  const t0 = now();
  const end = t0 + durationS * 1000;
  log(`publishing ${rate} live updates/s for ${durationS} s`);
  while (now() < end) {
    const due = Math.min(Math.floor(((now() - t0) / 1000) * rate), Math.floor(durationS * rate));
    const batch: Array<Promise<void>> = [];
    for (; sent < due; sent++) {
      const i = next++ % unitCount;
      batch.push(live.publish({ accountId: fleet.accountId, imei: fleet.imeis[i] as string, viewers: [] }, nextMove(fleet, i, Date.now())).catch(() => void failed++));
    }
    await Promise.all(batch);
    await sleep(10);
  }
  const publishS = (now() - t0) / 1000;
  // Messages still on their way to the browser: wait while they keep coming (at most 30 s).
  const publishEnd = now();
  let lastArrival = publishEnd;
  let lastCount = counter.count;
  while (now() < publishEnd + 30_000 && counter.count < sent - failed && now() - lastArrival < 3000) {
    await sleep(100);
    if (counter.count !== lastCount) {
      lastCount = counter.count;
      lastArrival = now();
    }
  }
  const delivered = counter.count;
  const cpuTo = cpuSnapshot();
  if (profiler && flags.profile) {
    const { profile } = await profiler.send('Profiler.stop');
    writeFileSync(flags.profile, JSON.stringify(profile));
    log(`CPU profile of the live phase written to ${flags.profile}`);
  }
  if (flags.trace) {
    writeFileSync(flags.trace, await browser.stopTracing());
    log(`trace of the live phase written to ${flags.trace}`);
  }
  const drainS = (lastArrival - publishEnd) / 1000;

  const result = await page.evaluate((from) => {
    const probe = (window as unknown as ProbeWindow).__mapBench;
    probe.counting = false;
    const seconds = (performance.now() - from) / 1000;
    const during = probe.longTasks.filter(([start]) => start >= from).map(([, d]) => d);
    const before = probe.longTasks.filter(([start]) => start < from).map(([, d]) => d);
    // What the first markers waited for: the settings, the first units page, MapLibre's module (from
    // the page's navigation start). No named functions in here: tsx would wrap them in a helper the page lacks.
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const [settings, firstPage, maplibre] = ['/user/settings$', '/realtime/units\\?.*segments=', 'maplibre-gl[^/]*\\.js$'].map((pattern) => {
      const entry = entries.find((e) => new RegExp(pattern).test(e.name));
      return entry ? { asked: entry.startTime, in: entry.responseEnd } : null;
    });
    const milestones = { settings: settings ?? null, firstPage: firstPage ?? null, maplibre: maplibre ?? null, context: probe.contextAt, firstLink: probe.firstLinkAt };
    return { seconds, frames: probe.frames, longestFrameMs: probe.longestFrameMs, mapDraws: probe.mapDraws, programsLinked: probe.programsLinked, during, before, firstDrawnAt: probe.firstDrawnAt, drawn: probe.drawn, milestones };
  }, liveFrom);

  const longest = (list: number[]) => (list.length ? Math.max(...list) : 0);
  const fps = result.frames / result.seconds;
  const cpu = cpuFrom && cpuTo ? cpuShares(cpuFrom, cpuTo) : null;
  const loadCpu = loadCpuFrom && loadCpuTo ? cpuShares(loadCpuFrom, loadCpuTo) : null;
  const tasks = (list: number[]) => (list.length ? `${list.length}, longest ${longest(list).toFixed(0)} ms, ${list.reduce((a, b) => a + b, 0).toFixed(0)} ms in all` : 'none over 50 ms');
  const firstMs = result.firstDrawnAt;
  const allMs = result.drawn.find(([, count]) => count >= unitCount)?.[0] ?? null;
  const loadingLongest = longest(result.before);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);
  const limitMb = mb(LAMBDA_RESPONSE_LIMIT);
  console.log(`
  Map benchmark: ${unitCount} units, ${durationS} s of live updates at ${rate}/s (Chromium ${browser.version()}, ${VIEWPORT.width}x${VIEWPORT.height})
    machine                       ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} (the browser, runtime and publisher share them)
    first markers drawn           ${seconds(firstMs)} after opening the page    target: ${TARGET.firstMarkersMs / 1000} s
    all units drawn               ${seconds(allMs)} after opening the page (${(drawMs / 1000).toFixed(1)} s as the bench polled)    target: ${TARGET.allDrawnMs / 1000} s
    before the first markers      ${milestonesLine(result.milestones)}
    drawn as pages came           ${result.drawn.map(([at, count]) => `${count} at ${(at / 1000).toFixed(1)} s`).join(', ')}
    long tasks while loading      ${tasks(result.before)}    target: none over ${TARGET.longestLoadingTaskMs} ms
    map view pages                ${pages.length} pages for ${pagedUnits} units, ${bytesPerUnit.toFixed(0)} bytes per unit, ${mb(pagedBytes)} in all; largest page ${mb(largestPage)} of Lambda's ${limitMb}; server ${Math.max(...pages.map((p) => p.ms)).toFixed(0)} ms at most per page, ${(pages.reduce((sum, p) => sum + p.ms, 0) / 1000).toFixed(1)} s for all (one after the other, as the map reads them)
    at ${PROJECTED_UNITS} units               ${Math.ceil(PROJECTED_UNITS / REALTIME_PAGE_MAX)} pages of ${REALTIME_PAGE_MAX}, each about ${mb(projectedPage)} of Lambda's ${limitMb}
    full answer (no query)        ${fetchMs === null ? `about ${mb(answerBytes)} (not fetched; ${fullBytesPerUnit.toFixed(0)} bytes per unit as ?imei= answers them)` : `${mb(answerBytes)} in ${fetchMs.toFixed(0)} ms, ${(answerBytes / unitCount).toFixed(0)} bytes per unit`}${answerBytes > LAMBDA_RESPONSE_LIMIT ? ': OVER the 6 MB limit on AWS (the contract form, not read by the map)' : ''}; at ${PROJECTED_UNITS} units about ${mb((answerBytes / unitCount) * PROJECTED_UNITS)}
    updates published             ${(sent / publishS).toFixed(0)}/s (${sent}${failed ? `, ${failed} failed` : ''}) on live/${fleet.accountId}/units/<imei>
    updates delivered to the page ${(delivered / publishS).toFixed(0)}/s (${delivered} MQTT PUBLISH packets on its WebSocket, ${((delivered / Math.max(1, sent)) * 100).toFixed(1)} %; the last ${drainS.toFixed(1)} s after publishing ended)    target: ${TARGET.deliveredShare * 100} %
    long tasks while live         ${tasks(result.during)}    target: none over ${TARGET.longestTaskMs} ms
    frames per second             ${fps.toFixed(1)} (requestAnimationFrame; longest frame ${result.longestFrameMs.toFixed(0)} ms)
    map redraws per second        ${(result.mapDraws / result.seconds).toFixed(1)} (WebGL frames MapLibre drew)
    shader programs linked        ${result.programsLinked} while live (each a main-thread stall the first time a layer is drawn)
    CPU while loading             ${cpuLine(loadCpu, 'runtime')}
    CPU while live                ${cpuLine(cpu, 'runtime and publisher')}
    page errors                   ${errors.length ? errors.join(' | ') : 'none'}
    page console warnings/errors  ${consoleKinds.size ? [...consoleKinds].map(([kind, n]) => `\n      ${n} x ${kind}`).join('') : 'none'}
`);
  const missed = [
    (firstMs === null || firstMs > TARGET.firstMarkersMs) && `first markers ${seconds(firstMs)} after opening, over ${TARGET.firstMarkersMs / 1000} s`,
    (allMs === null || allMs > TARGET.allDrawnMs) && `all units drawn ${seconds(allMs)} after opening, over ${TARGET.allDrawnMs / 1000} s`,
    loadingLongest > TARGET.longestLoadingTaskMs && `a ${loadingLongest.toFixed(0)} ms task while loading`,
    longest(result.during) > TARGET.longestTaskMs && `${result.during.filter((d) => d > TARGET.longestTaskMs).length} tasks over ${TARGET.longestTaskMs} ms while live, the longest ${longest(result.during).toFixed(0)} ms`,
    delivered < sent * TARGET.deliveredShare && `only ${delivered} of ${sent} updates reached the page`,
    largestPage > LAMBDA_RESPONSE_LIMIT && `a page of GET /realtime/units?view=map answers ${mb(largestPage)}, over Lambda's 6 MB`,
    projectedPage > LAMBDA_RESPONSE_LIMIT && `at ${PROJECTED_UNITS} units a page would answer about ${mb(projectedPage)}, over Lambda's 6 MB`,
    pagedUnits !== unitCount && `the pages held ${pagedUnits} units, not ${unitCount}`,
    errors.length > 0 && `${errors.length} page errors`,
  ].filter(Boolean);
  if (missed.length) console.log(`  MISSED: ${missed.join('; ')}`);
  else console.log('  All targets met.');
  exitCode = missed.length ? 1 : 0;
  await context.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 2;
} finally {
  await browser.close();
  await runtime.stop();
}
process.exit(exitCode);
