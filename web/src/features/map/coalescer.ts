/**
 * Turns a stream of changes into at most one flush per interval, on an animation frame: live
 * messages may arrive a thousand a second, the map source and the list are updated a few times a
 * second with everything that changed in between. A hidden tab gets no frames, so it does no work
 * until it is shown again.
 */
export interface Coalescer<K> {
  mark(key: K): void;
  /** Everything changed: the next flush gets null instead of keys. */
  markAll(): void;
  cancel(): void;
}

export interface CoalescerOptions {
  /** The least time between two flushes; a function is asked again before each. */
  intervalMs: number | (() => number);
  now?: () => number;
  frame?: (run: () => void) => void;
  timer?: (run: () => void, ms: number) => () => void;
}

const defaultFrame = (run: () => void) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else setTimeout(run, 0);
};

const defaultTimer = (run: () => void, ms: number) => {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
};

export function createCoalescer<K>(flush: (keys: ReadonlySet<K> | null) => void, options: CoalescerOptions): Coalescer<K> {
  const now = options.now ?? (() => performance.now());
  const frame = options.frame ?? defaultFrame;
  const timer = options.timer ?? defaultTimer;
  let keys = new Set<K>();
  let all = false;
  let scheduled = false;
  let lastFlush = -Infinity;
  let generation = 0;
  let cancelTimer: (() => void) | null = null;

  function run(current: number): void {
    if (current !== generation) return;
    scheduled = false;
    lastFlush = now();
    const changed = all ? null : keys;
    keys = new Set<K>();
    all = false;
    flush(changed);
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    const current = generation;
    const interval = typeof options.intervalMs === 'function' ? options.intervalMs() : options.intervalMs;
    const wait = lastFlush + interval - now();
    if (wait <= 0) frame(() => run(current));
    else
      cancelTimer = timer(() => {
        cancelTimer = null;
        frame(() => run(current));
      }, wait);
  }

  return {
    mark(key) {
      if (!all) keys.add(key);
      schedule();
    },
    markAll() {
      all = true;
      keys.clear();
      schedule();
    },
    cancel() {
      generation++;
      cancelTimer?.();
      cancelTimer = null;
      scheduled = false;
      keys.clear();
      all = false;
    },
  };
}
