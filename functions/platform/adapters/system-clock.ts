import type { Clock } from '../ports';

/** The clock of both runtimes; tests replace it with `overridePorts({ clock })`. */
export const systemClock: Clock = {
  now: () => new Date(),
};
