/**
 * My trips offline, in real Chromium against the embedded runtime, behind a TCP relay the test can
 * cut (the phone's network: the page's and the service worker's requests alike), with the
 * browser's own offline state switched with it (context.setOffline).
 *
 * demo-user opens My trips with coverage (the service worker installs and keeps the shell and the
 * reads), then loses the network: the page opens again from the service worker with the stored
 * trips, the offline notice and the time of the last sync. Four trips are edited offline; while
 * the phone is offline the day of the fourth is attested through the API. Back online the outbox
 * is sent in order: the three edits arrive once each (the trips' versions, read from the table,
 * rose by one; a second sync sends nothing again), and the fourth is refused and shown on its trip
 * with the reason and the typed values. The manifest of the brand is linked and served. Screens at
 * 390 and 1280 px with axe; photographs with SCREENSHOTS=1 into test-results/my-trips/.
 */
import { request as httpRequest, createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTrip } from '../../functions/trips/trip-repository';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { myTripsEn } from '../../shared/i18n/features/my-trips/en';
import { localDayOf, startOfLocalDay } from '../../shared/local-time';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { type App, checkAndShoot, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';
import { storeTestTrip } from '../support/stored-trips';

const SHOTS = join(SHOTS_DIR, 'my-trips');
const ZONE = 'Europe/Stockholm';
const IMEI = demoImei(0);
const HOUR = 3_600_000;

let app: App;
let browser: Browser;
let relay: Relay;
let user: Caller;
let context: BrowserContext;
let page: Page;

/**
 * A TCP relay to the runtime: `cut()` drops every connection and refuses new ones until
 * `restore()`; `hold()` keeps what the runtime answers until `release()` (a slow network);
 * `requested(path)` resolves once a request for that path has passed on to the runtime.
 */
interface Relay {
  url: string;
  cut(): void;
  restore(): void;
  hold(): void;
  release(): void;
  requested(path: string): Promise<void>;
  close(): Promise<void>;
}
async function startRelay(target: URL): Promise<Relay> {
  let down = false;
  let held: Array<() => void> | null = null;
  const watched = new Map<string, () => void>();
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    client.on('data', (chunk: Buffer) => {
      for (const [requestLine, seen] of watched) if (chunk.includes(requestLine)) seen();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (held) held.push(() => client.write(chunk));
      else client.write(chunk);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no relay address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore: () => {
      down = false;
    },
    hold: () => {
      held ??= [];
    },
    release: () => {
      const waiting = held ?? [];
      held = null;
      for (const write of waiting) write();
    },
    requested: (path) =>
      new Promise<void>((seen) => {
        const requestLine = `GET ${path} HTTP/`;
        watched.set(requestLine, () => {
          watched.delete(requestLine);
          seen();
        });
      }),
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/**
 * An HTTP proxy to the runtime that serves the next version of the app: after `release()` its
 * `/sw.js` carries other bytes (a comment with the version appended), as a deployment changes the
 * worker. The browser's own update check reaches it (Playwright's routing does not see that fetch).
 */
interface Releases {
  url: string;
  release(): void;
  close(): Promise<void>;
}
async function startReleases(target: URL): Promise<Releases> {
  let version = 1;
  const server = createHttpServer((req, res) => {
    const isWorker = req.url?.split('?')[0] === '/sw.js';
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
    // The worker's bytes are changed below: ask for them uncompressed.
    if (isWorker) delete headers['accept-encoding'];
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      if (!isWorker || version === 1 || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat([...chunks, Buffer.from(`\n// version ${version}\n`)]);
        const { etag: _etag, 'last-modified': _modified, ...rest } = answer.headers;
        res.writeHead(200, { ...rest, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // The live channel's WebSocket goes through as it is.
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    const drop = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no proxy address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    release: () => {
      version += 1;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

/** Trips of the unit: one on each of four recent days, 09:00 local. */
const days = [2, 3, 4, 5].map((back) => localDayOf(Date.now() - back * 24 * HOUR, ZONE));
const starts = days.map((day) => startOfLocalDay(day, ZONE) + 9 * HOUR);
const ids: string[] = [];
const versions = async () => Promise.all(starts.map(async (ts) => (await getTrip(IMEI, ts))?.v ?? 0));
const card = (id: string) => page.locator(`article[data-trip-id="${id}"]`);

async function setOffline(offline: boolean): Promise<void> {
  if (offline) relay.cut();
  else relay.restore();
  await context.setOffline(offline);
}

async function editTrip(id: string, change: (dialog: ReturnType<Page['getByRole']>) => Promise<void>): Promise<void> {
  await card(id).getByRole('button', { name: myTripsEn.MyTripsEdit }).click();
  const dialog = page.getByRole('dialog');
  await change(dialog);
  await dialog.getByRole('button', { name: myTripsEn.MyTripsSave }).click();
  await poll(() => dialog.count()).toBe(0);
}

beforeAll(async () => {
  // The whole browser: in the headless shell the page started offline from the service worker
  // finds nothing of the last sync that My trips kept (IndexedDB).
  ({ app, browser } = await startBrowserApp({ browser: 'chromium' }));
  relay = await startRelay(new URL(app.url));
  user = await callerFor(demoUsers.user.username, DEMO_PASSWORD);
  for (const ts of starts) ids.push(await storeTestTrip(IMEI, ts, { minutes: 25, distanceM: 14_200 }));
  ({ context, page } = await openPage(browser, undefined, { serviceWorkers: 'allow' }));
  // The unit the trip log remembers for demo-user: My trips shows the same one.
  await context.addInitScript(([key, imei]) => window.localStorage.setItem(key as string, imei as string), [`triplog.unit.${user.userId}`, IMEI]);
});

afterAll(async () => {
  await relay?.close();
  await stopBrowserApp({ app, browser });
});

describe('the installable app', () => {
  it("links and serves each brand's manifest with its icons", async () => {
    const manifest = await page.request.get(`${relay.url}/brands/0/manifest.webmanifest`);
    expect(manifest.headers()['content-type']).toBe('application/manifest+json');
    const body = (await manifest.json()) as { name: string; icons: Array<{ src: string; purpose: string }> };
    expect(body.name).toBe('TrackPortal');
    for (const icon of body.icons) expect((await page.request.get(`${relay.url}${icon.src}`)).headers()['content-type']).toBe('image/png');
    await page.goto(`${relay.url}/`);
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/brands/0/manifest.webmanifest');
  });
});

describe('My trips offline', () => {
  it('opens with coverage, installs the service worker and keeps the trips', async () => {
    await logInAt(page, relay.url, '/user/my-trips', demoUsers.user.username);
    await poll(() => card(ids[0] as string).count()).toBe(1);
    // The first visit installs the worker; from the next load on it answers the page's requests.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await poll(() => card(ids[3] as string).count()).toBe(1);
    await poll(() => page.getByTestId('last-sync').textContent()).toMatch(/^Last synced /);
    await checkAndShoot(page, SHOTS, 'my-trips-online');
  });

  it('opens without a network from the service worker, and keeps four edits made offline as waiting', async () => {
    await setOffline(true);
    await page.reload();
    await poll(() => page.getByTestId('offline-banner').count()).toBe(1);
    expect(await page.getByTestId('offline-banner').textContent()).toContain(myTripsEn.MyTripsOffline);
    // Read from the phone's store (IndexedDB) a moment after the page starts.
    await poll(() => page.getByTestId('offline-banner').textContent()).toMatch(/Last synced /);
    for (const id of ids) await poll(() => card(id).count()).toBe(1);

    const before = await versions();
    await editTrip(ids[0] as string, (d) => d.getByRole('radio', { name: 'Private' }).check());
    await editTrip(ids[1] as string, (d) => d.getByRole('textbox', { name: myTripsEn.MyTripsNote }).fill('Customer meeting in Solna'));
    await editTrip(ids[2] as string, (d) => d.getByRole('textbox', { name: myTripsEn.MyTripsPassengers }).fill('Anna Berg'));
    await editTrip(ids[3] as string, (d) => d.getByRole('textbox', { name: myTripsEn.MyTripsPurpose }).fill('Site visit'));
    for (const id of ids) await poll(() => card(id).getByText(myTripsEn.MyTripsPending).count()).toBe(1);
    await poll(() => page.getByText('Changes waiting to be sent: 4').count()).toBe(1);
    // Nothing reached the server.
    expect(await versions()).toEqual(before);
    await checkAndShoot(page, SHOTS, 'my-trips-offline-pending');

    // Meanwhile the fourth trip's day is attested (from another device).
    const attest = await callAs(app.url, 'POST', '/api/v1/user/trips/attest', user, { imei: IMEI, from: days[3], to: days[3] }, ZONE);
    expect(attest.status).toBe(200);
  });

  it('sends the waiting edits in order when the network is back, each once, and shows the refusal on its trip', async () => {
    const before = await versions();
    await setOffline(false);
    await poll(() => page.getByText(/Changes waiting to be sent/).count()).toBe(0);
    const refused = card(ids[3] as string).getByRole('alert');
    await poll(() => refused.count()).toBe(1);
    const text = (await refused.textContent()) ?? '';
    expect(text).toContain(myTripsEn.MyTripsRefused);
    expect(text).toContain('This trip is in an attested period');
    expect(text).toContain('Purpose: Site visit');

    const trip = (id: string) => getTrip(IMEI, starts[ids.indexOf(id)] as number);
    expect((await trip(ids[0] as string))?.type).toBe('private');
    expect((await trip(ids[1] as string))?.note).toBe('Customer meeting in Solna');
    expect((await trip(ids[2] as string))?.passengers).toBe('Anna Berg');
    expect((await trip(ids[3] as string))?.purpose ?? null).toBeNull();
    // Applied once each: every version rose by one, the attested trip's not at all.
    const after = await versions();
    expect(after.map((v, i) => v - (before[i] as number))).toEqual([1, 1, 1, 0]);

    // Another sync sends nothing again: it runs (it reads the trips anew) and changes no trip.
    const tripWrites: string[] = [];
    const onRequest = (request: Request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname.startsWith('/api/v1/user/trips/')) tripWrites.push(request.url());
    };
    page.on('request', onRequest);
    const reread = page.waitForRequest((request) => request.method() === 'GET' && new URL(request.url()).pathname === '/api/v1/user/trips');
    await page.getByRole('button', { name: myTripsEn.MyTripsSyncNow }).click();
    await reread;
    await poll(() => page.getByRole('button', { name: myTripsEn.MyTripsSyncNow }).isEnabled()).toBe(true);
    page.off('request', onRequest);
    expect(tripWrites).toEqual([]);
    expect(await versions()).toEqual(after);
    for (const id of ids.slice(0, 3)) expect(await card(id).getByText(myTripsEn.MyTripsPending).count()).toBe(0);
    await checkAndShoot(page, SHOTS, 'my-trips-refused');
  });

  it('shows the refused change offline too, and discards it on request; log-out clears what was kept', async () => {
    await setOffline(true);
    await page.reload();
    await poll(() => page.getByTestId('offline-banner').count()).toBe(1);
    await poll(() => card(ids[3] as string).getByRole('alert').count()).toBe(1);
    await checkAndShoot(page, SHOTS, 'my-trips-offline-refused', { axe: false });
    await card(ids[3] as string).getByRole('button', { name: myTripsEn.MyTripsDiscard }).click();
    await poll(() => card(ids[3] as string).getByRole('alert').count()).toBe(0);

    await setOffline(false);
    await page.reload();
    await poll(() => card(ids[0] as string).count()).toBe(1);

    // A read still on its way when the session ends is not kept after the log-out deleted what
    // was kept: the worker keeps an answer after the page has it, which used to put the cache back.
    const kept = (path: string) =>
      page.evaluate(async (url) => {
        const names = (await caches.keys()).filter((name) => name.startsWith('api-reads-'));
        const hits = await Promise.all(names.map(async (name) => (await (await caches.open(name)).match(url)) !== undefined));
        return hits.some(Boolean);
      }, path);
    const read = (path: string) => (window as unknown as { reads: Record<string, Promise<number>> }).reads[path];
    const startRead = (path: string) =>
      page.evaluate(
        ([url, token]) => {
          const w = window as unknown as { reads?: Record<string, Promise<number>> };
          (w.reads ??= {})[url as string] = fetch(url as string, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
        },
        [path, user.token],
      );
    await poll(() => kept('/api/v1/user/settings')).toBe(true);
    relay.hold();
    const requested = relay.requested('/api/v1/user/settings');
    await startRead('/api/v1/user/settings');
    // The worker has begun the read (it is at the runtime) before the log-out is told.
    await requested;
    // What the log-out tells the worker (web/src/pwa/offline-data.ts), while the answer is held.
    await page.evaluate(() => navigator.serviceWorker.controller?.postMessage({ type: 'LOGGED_OUT' }));
    await poll(() => kept('/api/v1/user/settings')).toBe(false);
    relay.release();
    expect(await page.evaluate(read, '/api/v1/user/settings')).toBe(200);
    // A read begun after it is kept (in the user's cache again), after the held one had its turn.
    await startRead('/api/v1/user/units');
    expect(await page.evaluate(read, '/api/v1/user/units')).toBe(200);
    await poll(() => kept('/api/v1/user/units')).toBe(true);
    expect(await kept('/api/v1/user/settings')).toBe(false);

    await page.getByRole('button', { name: en.LogOut }).first().click();
    await page.waitForURL(`${relay.url}/`);
    await poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('api-reads-')).length)).toBe(0);
    await poll(() =>
      page.evaluate(
        (userId) =>
          new Promise<number>((done) => {
            const open = indexedDB.open(`my-trips-${userId}`);
            open.onsuccess = () => {
              const count = open.result.transaction('trips').objectStore('trips').count();
              count.onsuccess = () => done(count.result);
            };
          }),
        user.userId,
      ),
    ).toBe(0);
  });
});

describe('an update of the app', () => {
  let releases: Releases;
  let phone: Page;
  const prompt = () => phone.getByRole('status').filter({ hasText: myTripsEn.AppUpdateAvailable });
  const checkForUpdate = () =>
    phone.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      await registration?.update();
    });

  beforeAll(async () => {
    releases = await startReleases(new URL(app.url));
    let phoneContext: BrowserContext;
    ({ context: phoneContext, page: phone } = await openPage(browser, PHONE, { serviceWorkers: 'allow' }));
    await phoneContext.addInitScript(([key, imei]) => window.localStorage.setItem(key as string, imei as string), [`triplog.unit.${user.userId}`, IMEI]);
  });

  afterAll(async () => {
    await phone?.context().close();
    await releases?.close();
  });

  it('is offered, not forced: Reload waits while a form is open, then the new version takes over', async () => {
    // The installed app on a phone: its worker controls the page.
    await logInAt(phone, releases.url, '/user/my-trips', demoUsers.user.username);
    await poll(() => phone.locator(`article[data-trip-id="${ids[0]}"]`).count()).toBe(1);
    await phone.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await phone.reload();
    await poll(() => phone.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    // No new version yet: the check finds the same worker and offers nothing.
    await checkForUpdate();
    expect(await prompt().count()).toBe(0);

    // Editing a trip, when a new version is published.
    await phone.locator(`article[data-trip-id="${ids[1]}"]`).getByRole('button', { name: myTripsEn.MyTripsEdit }).click();
    const dialog = phone.getByRole('dialog');
    await dialog.getByRole('textbox', { name: myTripsEn.MyTripsNote }).fill('Half-typed note');
    releases.release();
    await checkForUpdate();
    await poll(() => prompt().count()).toBe(1);
    expect(await prompt().textContent()).toContain(myTripsEn.AppUpdateAfterSync);
    expect(await prompt().getByRole('button', { name: myTripsEn.AppUpdateReload }).isDisabled()).toBe(true);
    // The page was not taken over: the dialog and what was typed are still there.
    expect(await dialog.getByRole('textbox', { name: myTripsEn.MyTripsNote }).inputValue()).toBe('Half-typed note');
    await checkAndShoot(phone, SHOTS, 'my-trips-update-waits');

    // The form closed, Reload is offered; the new version takes over and the page reloads once.
    await phone.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    await poll(() => prompt().getByRole('button', { name: myTripsEn.AppUpdateReload }).isEnabled()).toBe(true);
    expect(await prompt().textContent()).not.toContain(myTripsEn.AppUpdateAfterSync);
    await phone.evaluate(() => Object.assign(window, { beforeUpdate: true }));
    await prompt().getByRole('button', { name: myTripsEn.AppUpdateReload }).click();
    await poll(() => phone.evaluate(() => 'beforeUpdate' in window)).toBe(false);
    await poll(() => phone.locator(`article[data-trip-id="${ids[0]}"]`).count()).toBe(1);
    expect(
      await phone.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { waiting: registration?.waiting ?? null, active: registration?.active?.state, controlled: navigator.serviceWorker.controller !== null };
      }),
    ).toEqual({ waiting: null, active: 'activated', controlled: true });
    expect(await prompt().count()).toBe(0);
  });

  it('goes away on Later and stays away for that version', async () => {
    releases.release();
    await checkForUpdate();
    await poll(() => prompt().count()).toBe(1);
    await prompt().getByRole('button', { name: myTripsEn.AppUpdateLater }).click();
    await poll(() => prompt().count()).toBe(0);
    await checkForUpdate();
    expect(await prompt().count()).toBe(0);
  });
});
