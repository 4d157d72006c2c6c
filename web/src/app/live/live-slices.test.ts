/**
 * The live controller hands a burst of messages (one WebSocket frame may carry hundreds) to its
 * listeners in slices of the main thread, in order and all of them, instead of in one long task.
 */
import { describe, expect, it } from 'vitest';
import type { LiveMessage } from '../../../../shared/schemas/live';
import { createLiveController, type LinkEvents } from './live-controller';

const connection = { url: 'ws://127.0.0.1:1/mqtt', clientId: 'web-test', username: 'u', password: 'p', topics: ['live/a/units/#'] };

describe('live messages in slices', () => {
  it('delivers a burst in order over several tasks, each handling at most a few milliseconds of it', async () => {
    let events: LinkEvents | null = null;
    const controller = createLiveController({
      loadTransport: () =>
        Promise.resolve({
          fetchConnection: () => Promise.resolve(connection),
          open: (_connection, linkEvents) => {
            events = linkEvents;
            return { close: () => undefined };
          },
          parse: (payload) => ({ type: 'access', imei: new TextDecoder().decode(payload), granted: true }) as LiveMessage,
        }),
      token: () => 'token',
      onTokenChange: () => () => undefined,
    });
    const heard: string[] = [];
    const release = controller.listen((message) => {
      if (message.type !== 'access') return;
      heard.push(message.imei);
      // Each message costs the page 0.2 ms.
      const until = performance.now() + 0.2;
      while (performance.now() < until);
    });
    await expect.poll(() => events !== null).toBe(true);
    (events as unknown as LinkEvents).online();
    const burst = Array.from({ length: 400 }, (_, i) => String(i));
    const started = performance.now();
    for (const imei of burst) (events as unknown as LinkEvents).message(new TextEncoder().encode(imei));
    // The frame's task ends after one slice, not after 80 ms of listeners.
    expect(performance.now() - started).toBeLessThan(40);
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.length).toBeLessThan(burst.length);
    await expect.poll(() => heard.length).toBe(burst.length);
    expect(heard).toEqual(burst);
    release();
  });
});
