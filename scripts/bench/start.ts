/**
 * `npm run bench:start`: how long a new user waits after `npm start`. Runs `npm start` in this
 * project on a new, empty data directory (free ports, 20 simulated trackers, 30 days of demo
 * history) and prints, from the moment `npm start` was run:
 *   - when `/api/health` first answers 200 (target 15 s),
 *   - when the demo admin's live map shows a simulated tracker's position sent after the start
 *     (target 15 s),
 *   - when the demo history has filled (GET /api/dev/demo-history),
 * then stops it and starts it again on the same data directory (the second start reuses what is
 * stored) and prints the first two figures again. The lines `npm start` printed are shown with
 * their times. Exits 1 when a target is missed.
 *
 *   npm run bench:start                    both starts
 *   npm run bench:start -- --no-history    does not wait for the history to fill (DEMO_HISTORY_DAYS stays 30)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../infra/local/net';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';

const TARGET_MS = 15_000;
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const waitHistory = !process.argv.includes('--no-history');

interface Started {
  child: ChildProcess;
  startedAt: number;
  url: string;
  lines: Array<{ at: number; line: string }>;
  exited: Promise<number | null>;
}

function startPortal(dataDir: string, port: number, mqttPort: number): Started {
  const startedAt = Date.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: String(port), MQTT_PORT: String(mqttPort), DATA_DIR: dataDir, SIMULATED_TRACKERS: '20', DEMO_HISTORY_DAYS: '30' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Started['lines'] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push({ at: Date.now() - startedAt, line });
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, startedAt, url: `http://127.0.0.1:${port}`, lines, exited };
}

async function stopPortal(s: Started): Promise<void> {
  if (s.child.exitCode !== null) return;
  try {
    process.kill(-s.child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const killer = setTimeout(() => {
    try {
      process.kill(-s.child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }, 20_000);
  await s.exited;
  clearTimeout(killer);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every `everyMs` until it returns a value; the ms since the start, or throws after `timeoutMs`. */
async function until<T>(s: Started, what: string, probe: () => Promise<T | null>, timeoutMs: number, everyMs = 100): Promise<{ ms: number; value: T }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (s.child.exitCode !== null) throw new Error(`npm start exited (${s.child.exitCode}) before ${what}:\n${s.lines.map((l) => l.line).join('\n')}`);
    const value = await probe().catch(() => null);
    if (value !== null) return { ms: Date.now() - s.startedAt, value };
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
    await pause(everyMs);
  }
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: await res.json().catch(() => null) };
}

async function login(url: string): Promise<string | null> {
  const r = await json(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: demoUsers.admin.username, password: DEMO_PASSWORD, subsiteid: 0 }),
  });
  const token = (r.body as { data?: { user?: { token?: string } } } | null)?.data?.user?.token;
  return r.status === 200 && token ? token : null;
}

interface Figures {
  healthMs: number;
  liveMs: number;
  historyMs: number | null;
}

async function measure(s: Started, history: boolean): Promise<Figures> {
  const health = await until(s, 'answer on /api/health', async () => ((await fetch(`${s.url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok ? true : null), 180_000, 50);
  const { value: token } = await until(s, 'demo admin login', () => login(s.url), 60_000);
  const auth = { headers: { authorization: `Bearer ${token}` } };
  const since = s.startedAt;
  const live = await until(
    s,
    'live position on the map',
    async () => {
      const r = await json(`${s.url}/api/v1/user/realtime/units`, auth);
      const units = (r.body as { data?: Array<{ state: { ts: string } | null }> } | null)?.data ?? [];
      return units.some((u) => u.state && Date.parse(u.state.ts) >= since - 1000) ? true : null;
    },
    180_000,
  );
  let historyMs: number | null = null;
  if (history) {
    let last = -1;
    const filled = await until(
      s,
      'demo history filled',
      async () => {
        const r = await json(`${s.url}/api/dev/demo-history`, auth);
        const status = (r.body as { data?: { filling: boolean; percent: number } } | null)?.data;
        if (status && status.percent !== last && status.percent % 10 === 0) {
          last = status.percent;
          console.log(`  history ${status.percent} % after ${((Date.now() - s.startedAt) / 1000).toFixed(1)} s`);
        }
        return status && !status.filling ? true : null;
      },
      1_800_000,
      1000,
    );
    historyMs = filled.ms;
  }
  return { healthMs: health.ms, liveMs: live.ms, historyMs };
}

function report(label: string, s: Started, f: Figures): boolean {
  console.log(`\n${label}: what npm start printed (seconds since npm start)`);
  for (const { at, line } of s.lines) if (!/^\s*$/.test(line)) console.log(`  ${(at / 1000).toFixed(1).padStart(6)}  ${line}`);
  const row = (name: string, ms: number, target: number | null) =>
    console.log(`  ${name.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(7)} s${target ? `   target ${target / 1000} s  ${ms <= target ? 'ok' : 'MISSED'}` : ''}`);
  console.log(`\n${label}:`);
  row('/api/health answers', f.healthMs, TARGET_MS);
  row('live fleet on the map', f.liveMs, TARGET_MS);
  if (f.historyMs !== null) row('demo history filled', f.historyMs, null);
  return f.healthMs <= TARGET_MS && f.liveMs <= TARGET_MS;
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
const port = await freePort();
const mqttPort = await freePort();
let ok = true;
try {
  const first = startPortal(dataDir, port, mqttPort);
  try {
    ok = report('First start (empty data directory)', first, await measure(first, waitHistory)) && ok;
  } finally {
    await stopPortal(first);
  }
  const second = startPortal(dataDir, port, mqttPort);
  try {
    ok = report('Second start (same data directory)', second, await measure(second, false)) && ok;
  } finally {
    await stopPortal(second);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
