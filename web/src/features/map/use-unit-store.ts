import { useEffect, useState } from 'react';
import { createCoalescer } from './coalescer';
import type { UnitStore } from './unit-store';

/**
 * A number that changes when the store did, at most once per `intervalMs`: what the list and the
 * details card re-render on. Live messages move the map several times a second; text that says
 * "12 km/h" does not need to.
 */
export function useUnitStoreVersion(store: UnitStore, intervalMs = 1_000): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const coalescer = createCoalescer<null>(() => setVersion((v) => v + 1), { intervalMs });
    const unsubscribe = store.subscribe(() => coalescer.mark(null));
    return () => {
      unsubscribe();
      coalescer.cancel();
    };
  }, [store, intervalMs]);
  return version;
}

/** The current time, renewed every `intervalMs`: relative times ("2 minutes ago") keep up without a store change. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}
