import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_WAIT_MS, QUIET_MS, isPageLoading, setPageLoading, whenPageSettled, type DocumentLoad } from './page-loads';

/** A document whose load event the test fires. */
function testDocument(loaded: boolean): DocumentLoad & { load(): void } {
  let listener: (() => void) | undefined;
  return {
    loaded: () => loaded,
    onLoaded: (l) => {
      listener = l;
    },
    load() {
      loaded = true;
      listener?.();
    },
  };
}

/** Whether the promise has settled once the timers due by now have run. */
async function settledAfter(promise: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('the page settling before the service worker is installed', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    setPageLoading('map', false);
    setPageLoading('other', false);
    vi.useRealTimers();
  });

  it('settles QUIET_MS after the document has loaded, when nothing is loading', async () => {
    const settled = whenPageSettled(testDocument(true));
    expect(await settledAfter(settled, QUIET_MS - 1)).toBe(false);
    expect(await settledAfter(settled, 1)).toBe(true);
  });

  it("waits for the document's load", async () => {
    const doc = testDocument(false);
    const settled = whenPageSettled(doc);
    expect(await settledAfter(settled, QUIET_MS * 3)).toBe(false);
    doc.load();
    expect(await settledAfter(settled, QUIET_MS)).toBe(true);
  });

  it('waits while a load holds, and is quiet again only QUIET_MS after the last one ended', async () => {
    setPageLoading('map', true);
    const settled = whenPageSettled(testDocument(true));
    expect(isPageLoading()).toBe(true);
    expect(await settledAfter(settled, QUIET_MS * 5)).toBe(false);
    setPageLoading('map', false);
    expect(await settledAfter(settled, QUIET_MS - 500)).toBe(false);
    // Another load starts within the quiet time: the wait starts over when it ends.
    setPageLoading('other', true);
    expect(await settledAfter(settled, QUIET_MS)).toBe(false);
    setPageLoading('other', false);
    expect(isPageLoading()).toBe(false);
    expect(await settledAfter(settled, QUIET_MS - 1)).toBe(false);
    expect(await settledAfter(settled, 1)).toBe(true);
  });

  it('counts a holder once, however often it says so', () => {
    setPageLoading('map', true);
    setPageLoading('map', true);
    setPageLoading('map', false);
    expect(isPageLoading()).toBe(false);
  });

  it('gives up waiting after MAX_WAIT_MS, however busy the page stays', async () => {
    setPageLoading('map', true);
    const settled = whenPageSettled(testDocument(true));
    expect(await settledAfter(settled, MAX_WAIT_MS - 1)).toBe(false);
    expect(await settledAfter(settled, 1)).toBe(true);
  });
});
