import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MapUnit, MapUnitsPage } from '../../../../../shared/schemas/tracking';

const session = vi.hoisted(() => ({ user: { token: 'a' } as object | null, listeners: new Set<() => void>() }));
vi.mock('../../../app/session', () => ({
  getSessionUser: () => session.user,
  subscribeSession: (listener: () => void) => {
    session.listeners.add(listener);
    return () => session.listeners.delete(listener);
  },
}));

/** A log-out or another log-in: the session's listeners are told. */
function changeSession(user: object | null) {
  session.user = user;
  for (const listener of [...session.listeners]) listener();
}

const { EARLY_PAGE_MAX_AGE_MS, MAP_FIRST_PAGE, MAP_PAGE, MAP_SEGMENTS, loadMapUnitPages, prefetchMapUnits } = await import('./map-api');
type Fetch = NonNullable<Parameters<typeof prefetchMapUnits>[0]>;
type Query = Parameters<Fetch>[0];

const unit = (imei: string): MapUnit => ({ imei, name: imei, registrationNumber: null, vehicleType: 'car', color: '#1c7ed6', symbol: 'car', operatingMode: null, state: null });

/** A server of three pages: the first names one more chain besides its `next`. */
const PAGES: Record<string, MapUnitsPage> = {
  first: { units: [unit('1')], next: 'a', segments: ['b'] },
  a: { units: [unit('2')], next: null },
  b: { units: [unit('3')], next: null },
};

interface Call {
  query: Query;
  limit: number;
  signal: AbortSignal;
}

/** Records every call; the first page fails `failFirst` times, or waits for `release()` when held. */
function server(options: { failFirst?: number; holdFirst?: boolean } = {}) {
  const calls: Call[] = [];
  let failures = options.failFirst ?? 0;
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const fetchPage: Fetch = async (query, limit, signal) => {
    calls.push({ query, limit, signal });
    if ('segments' in query) {
      if (options.holdFirst) await held;
      if (failures > 0) {
        failures--;
        throw new Error('first page failed');
      }
      return PAGES.first as MapUnitsPage;
    }
    return PAGES[query.cursor] as MapUnitsPage;
  };
  return { calls, fetchPage, release, firstCalls: () => calls.filter((call) => 'segments' in call.query) };
}

async function load(fetchPage: Fetch, now = () => 0, signal = new AbortController().signal) {
  const imeis: string[] = [];
  await loadMapUnitPages((units) => imeis.push(...units.map((u) => u.imei)), signal, fetchPage, now);
  return imeis.sort();
}

beforeEach(async () => {
  session.user = { token: 'a' };
  // Whatever a test left asked for early is taken (and dropped) by a load of its own.
  await load(server().fetchPage, () => Number.MAX_SAFE_INTEGER);
});

describe('loadMapUnitPages', () => {
  it('reads the first page with its segments, then every chain', async () => {
    const { calls, fetchPage } = server();
    expect(await load(fetchPage)).toEqual(['1', '2', '3']);
    expect(calls.map((call) => [call.query, call.limit])).toEqual([
      [{ segments: MAP_SEGMENTS }, MAP_FIRST_PAGE],
      [{ cursor: 'a' }, MAP_PAGE],
      [{ cursor: 'b' }, MAP_PAGE],
    ]);
  });

  it('takes the first page asked for early instead of asking again, once', async () => {
    const { fetchPage, firstCalls, calls } = server();
    prefetchMapUnits(fetchPage, () => 1000);
    expect(firstCalls()).toHaveLength(1);
    expect(await load(fetchPage, () => 1000 + EARLY_PAGE_MAX_AGE_MS)).toEqual(['1', '2', '3']);
    expect(firstCalls()).toHaveLength(1);
    expect(calls).toHaveLength(3);
    // A second load (a reload) asks for its own.
    expect(await load(fetchPage, () => 2000 + EARLY_PAGE_MAX_AGE_MS)).toEqual(['1', '2', '3']);
    expect(firstCalls()).toHaveLength(2);
  });

  it('asks only once for an early page however often it is prefetched while fresh', () => {
    const { fetchPage, firstCalls } = server();
    prefetchMapUnits(fetchPage, () => 0);
    prefetchMapUnits(fetchPage, () => EARLY_PAGE_MAX_AGE_MS);
    expect(firstCalls()).toHaveLength(1);
  });

  it("drops another session's early page: the load asks again, and the early request is cancelled", async () => {
    const { fetchPage, firstCalls } = server();
    prefetchMapUnits(fetchPage, () => 0);
    session.user = { token: 'b' };
    expect(await load(fetchPage)).toEqual(['1', '2', '3']);
    expect(firstCalls()).toHaveLength(2);
    expect(firstCalls()[0]?.signal.aborted).toBe(true);
  });

  it('drops the early page at once when the session ends, and stops watching the session', () => {
    const { fetchPage, firstCalls } = server();
    prefetchMapUnits(fetchPage, () => 0);
    expect(session.listeners.size).toBe(1);
    changeSession(null);
    expect(firstCalls()[0]?.signal.aborted).toBe(true);
    expect(session.listeners.size).toBe(0);
  });

  it('drops an early page nobody took after its maximum age', () => {
    vi.useFakeTimers();
    try {
      const { fetchPage, firstCalls } = server();
      prefetchMapUnits(fetchPage);
      vi.advanceTimersByTime(EARLY_PAGE_MAX_AGE_MS - 1);
      expect(firstCalls()[0]?.signal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect(firstCalls()[0]?.signal.aborted).toBe(true);
      expect(session.listeners.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops an early page older than its maximum age', async () => {
    const { fetchPage, firstCalls } = server();
    prefetchMapUnits(fetchPage, () => 0);
    expect(await load(fetchPage, () => EARLY_PAGE_MAX_AGE_MS + 1)).toEqual(['1', '2', '3']);
    expect(firstCalls()).toHaveLength(2);
    expect(firstCalls()[0]?.signal.aborted).toBe(true);
  });

  it('asks again when the early page failed, and loses nothing', async () => {
    const { fetchPage, firstCalls } = server({ failFirst: 1 });
    prefetchMapUnits(fetchPage, () => 0);
    expect(await load(fetchPage)).toEqual(['1', '2', '3']);
    expect(firstCalls()).toHaveLength(2);
  });

  it('cancels the early request with the load, and hands on nothing', async () => {
    const { fetchPage, firstCalls, release } = server({ holdFirst: true });
    prefetchMapUnits(fetchPage, () => 0);
    const controller = new AbortController();
    const loading = load(fetchPage, () => 0, controller.signal);
    controller.abort();
    release();
    expect(await loading).toEqual([]);
    expect(firstCalls()).toHaveLength(1);
    expect(firstCalls()[0]?.signal.aborted).toBe(true);
  });
});
