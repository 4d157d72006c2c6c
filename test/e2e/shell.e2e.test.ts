/**
 * The web shell in real Chromium against the embedded runtime (the built web app and the API):
 * login page, accessibility (axe), language switch, validation, not-found pages, route guards,
 * and the logged-in shell. Screenshots go to test-results/ (gitignored).
 */
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { no } from '../../shared/i18n/no';
import { sv } from '../../shared/i18n/sv';
import { loginAs } from '../support/sessions';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, openPage as openBrowserPage, poll, startBrowserApp, stopBrowserApp, type App, photograph } from '../support/browser';

const shots = SHOTS_DIR;

let app: App;
let browser: Browser;

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const openPage = (viewport = DESKTOP) => openBrowserPage(browser, viewport);
const seriousViolations = (page: Page) => axeViolations(page, 'serious');

async function shot(page: Page, name: string): Promise<void> {
  await photograph(page, join(shots, `shell-${name}.png`), { fullPage: true });
}

/** Stores a session as the app reads it (the plain-base64 form it also accepts outside secure contexts). */
async function storeSession(page: Page, user: Record<string, unknown>): Promise<void> {
  const value = `b1.${Buffer.from(JSON.stringify(user)).toString('base64')}`;
  await page.evaluate(([key, v]) => window.localStorage.setItem(key as string, v as string), ['user', value]);
}

describe('public shell', () => {
  it('shows an accessible login page and switches to Swedish', async () => {
    const { context, page, errors } = await openPage();
    await page.goto(`${app.url}/`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
    expect(await page.title()).toBe('Log in – TrackPortal');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByRole('link', { name: en.ForgotPassword }).getAttribute('href')).toBe('/user/forgot-password');
    expect(await page.getByRole('link', { name: en.RegisterLink }).getAttribute('href')).toBe('/user/register');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'login-1280x800');

    await page.getByLabel(en.Language).selectOption('sv');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Logga in på TrackPortal');
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(await page.evaluate(() => window.localStorage.getItem('language'))).toBe('sv');
    expect(await page.title()).toBe(`${sv.Login} – TrackPortal`);

    // The choice survives a reload.
    await page.reload();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Logga in på TrackPortal');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("greets a first visit in the browser's language (Norwegian, Swedish), and the picker still wins", async () => {
    for (const [locale, lang, heading] of [
      ['nb-NO', 'nb', 'Logg inn på TrackPortal'],
      ['sv-SE', 'sv', 'Logga in på TrackPortal'],
      ['de-DE', 'en', 'Log in to TrackPortal'],
    ] as const) {
      const context = await browser.newContext({ viewport: PHONE, locale, timezoneId: 'Europe/Stockholm' });
      const page = await context.newPage();
      await page.goto(`${app.url}/`);
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      if (locale === 'nb-NO') {
        await page.getByLabel(no.Language).selectOption('en');
        await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
        await page.reload();
        await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
      }
      await context.close();
    }
  });

  it('validates an empty form in Swedish and shows server errors translated, on a phone', async () => {
    const { context, page, errors } = await openPage(PHONE);
    await page.goto(`${app.url}/`);
    await page.getByLabel(en.Language).selectOption('sv');
    await page.getByRole('button', { name: sv.Login, exact: true }).click();
    await poll(() => page.getByText(sv.SpecifyUsername).isVisible()).toBe(true);
    expect(await page.getByText(sv.SpecifyPassword).isVisible()).toBe(true);
    // Focus goes to the first field in error.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'login-sv-errors-390x844');

    // The server's answer: a translated red banner with the attempts left, never a raw key.
    expect(await page.getByRole('textbox', { name: sv.UsernameOrEmail }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('textbox', { name: sv.Password, exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('textbox', { name: sv.UsernameOrEmail }).fill('demo-admin');
    await page.getByRole('textbox', { name: sv.Password, exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: sv.Login, exact: true }).click();
    const banner = page.getByRole('alert');
    await poll(() => banner.isVisible()).toBe(true);
    await poll(async () => (await banner.textContent())?.trim()).toBe(sv.InvalidCredentials.replace('{{count}}', '4'));
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'login-sv-server-error-390x844');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a network failure as the translated network error', async () => {
    const { context, page } = await openPage();
    await page.route('**/api/v1/login', (route) => route.abort('internetdisconnected'));
    await page.goto(`${app.url}/`);
    await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill('demo-admin');
    await page.getByRole('textbox', { name: en.Password, exact: true }).fill('Demo-pass1');
    await page.getByRole('button', { name: en.Login, exact: true }).click();
    await poll(() => page.getByRole('alert').textContent()).toBe(en.NetworkError);
    await context.close();
  });

  it('shows the not-found page for unknown addresses in every area', async () => {
    const { context, page } = await openPage(PHONE);
    for (const path of ['/no-such-page', '/user/no-such-page', '/administration/no-such-page']) {
      await page.goto(`${app.url}${path}`);
      await poll(() => page.getByRole('heading', { name: en.PageNotFoundTitle }).isVisible()).toBe(true);
      expect(await page.getByText(en.PageNotFound).isVisible()).toBe(true);
      expect(new URL(page.url()).pathname).toBe(path);
    }
    expect(await page.title()).toBe(`${en.PageNotFoundTitle} – TrackPortal`);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'not-found-390x844');
    await context.close();
  });

  it('sends an unauthenticated visitor of a member route to the login page', async () => {
    const { context, page } = await openPage();
    for (const path of ['/user/realtime-tracking', '/administration/user-accounts', '/user/alerts']) {
      await page.goto(`${app.url}${path}`);
      await page.waitForURL(`${app.url}/`);
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
    }
    await context.close();
  });

  it('serves the public account pages, each with its title and a way back to the login page', async () => {
    const { context, page, errors } = await openPage(PHONE);
    const pages = [
      { path: '/user/forgot-password', title: en.ForgotPasswordTitle, back: en.Cancel },
      { path: '/user/reset-password', title: en.ResetPasswordTitle, back: en.Cancel },
      { path: '/account/deletion', title: en.AccountDeletionTitle, back: en.BackToLogin },
      { path: '/user/alert-opt-out', title: en.AlertOptOutTitle, back: en.Cancel },
    ];
    for (const { path, title, back } of pages) {
      await page.goto(`${app.url}${path}`);
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      expect(await page.title()).toBe(`${title} – TrackPortal`);
      expect(await page.getByText(en.NotYetAvailable).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('link', { name: back, exact: true }).click();
      await page.waitForURL(`${app.url}/`);
    }
    // A reset link without its code says so at once.
    await page.goto(`${app.url}/user/reset-password`);
    await poll(() => page.getByRole('alert').textContent()).toContain(en.InvalidResetCode);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('brands the page from ?subsite= and shows brand 6 its banner', async () => {
    const { context, page } = await openPage(PHONE);
    await page.goto(`${app.url}/?subsite=6`);
    // Without configured brand domains the runtime serves the plain page: ?subsite= picks the brand.
    expect(await page.getAttribute('#root', 'data-subsite')).toBeNull();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TripBook');
    expect(await page.getByRole('link', { name: en.OtherSiteLink }).getAttribute('href')).toBe('https://app.tripbook.example/');
    expect(await page.evaluate(() => window.localStorage.getItem('subsite'))).toBe('6');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'login-brand6-390x844');
    await context.close();
  });
});

describe('logged-in shell', () => {
  async function loggedIn(viewport: { width: number; height: number }, role: 'admin' | 'user' = 'admin') {
    const u = demoUsers[role];
    const session = await loginAs(u.username, DEMO_PASSWORD);
    const opened = await openPage(viewport);
    await opened.page.goto(`${app.url}/`);
    await storeSession(opened.page, { ID: session.userId, token: session.token, FirstName: u.firstName, LastName: u.lastName, Email: u.email });
    return opened;
  }

  it('lands on the map with the sidebar, header and announcement, and logs out', async () => {
    await dynamo().send(
      new PutCommand({ TableName: tableName('announcements'), Item: { subsiteId: '0', lang: 'en', text: 'Planned maintenance on Sunday 02:00–04:00.' } }),
    );
    const { context, page, errors } = await loggedIn(DESKTOP);
    await page.goto(`${app.url}/`);
    await page.waitForURL(`${app.url}/user/realtime-tracking`);
    await poll(() => page.getByRole('heading', { level: 1, name: en.Map }).isVisible()).toBe(true);
    const nav = page.getByRole('navigation', { name: en.MainNavigation });
    for (const label of [en.Map, en.Triplog, en.Geofence, en.Places, en.Unit, en.CarSchedule, en.Account, en.SafeReturnHome, en.AlarmReceiver, en.AddUnit, en.ManageRFIDCards]) {
      expect(await nav.getByRole('link', { name: label, exact: true }).isVisible(), label).toBe(true);
    }
    await poll(() => page.locator('[data-testid="realtime-map"]').count()).toBe(1);
    expect(await page.getByRole('link', { name: /support@trackportal\.example/ }).getAttribute('href')).toBe('mailto:support@trackportal.example');
    // The announcement arrives with its own request, after the map.
    await poll(() => page.getByText('Planned maintenance on Sunday').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'main-1280x800');

    // The announcement stays dismissed for that text.
    await page.getByRole('button', { name: en.DismissAnnouncement }).click();
    expect(await page.getByText('Planned maintenance on Sunday').count()).toBe(0);

    // The menu navigates and the header follows.
    await nav.getByRole('link', { name: en.Geofence, exact: true }).click();
    await page.waitForURL(`${app.url}/user/geofences`);
    await poll(() => page.getByRole('heading', { level: 1, name: en.Geofence }).isVisible()).toBe(true);

    // The set-new-password modal: Save only when all fields are filled in and the new ones are equal.
    await page.getByRole('button', { name: `Change password for Alva Andersson` }).click();
    const dialog = page.getByRole('dialog');
    const save = dialog.getByRole('button', { name: en.Save });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel(en.NewPassword, { exact: true }).fill('New-pass1!');
    await dialog.getByLabel(en.ConfirmNewPassword).fill('New-pass2!');
    expect(await save.isDisabled()).toBe(true);
    expect(await dialog.getByText(en.PasswordNotMatch).isVisible()).toBe(true);
    await dialog.getByLabel(en.ConfirmNewPassword).fill('New-pass1!');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel(en.CurrentPassword).fill(DEMO_PASSWORD);
    expect(await save.isDisabled()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: en.Cancel }).first().click();

    // Alert numbers exist only under one parent account; the demo account is not it.
    await page.goto(`${app.url}/administration/configure-alert-numbers`);
    await poll(() => page.getByRole('heading', { name: en.PageNotFoundTitle }).isVisible()).toBe(true);

    await page.getByRole('button', { name: en.LogOut }).click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
    expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('collapses the menu behind a burger on a phone', async () => {
    const { context, page } = await loggedIn(PHONE);
    await page.goto(`${app.url}/user/edit-terminal-list`);
    await poll(() => page.getByRole('heading', { level: 1, name: en.Unit }).isVisible()).toBe(true);
    const burger = page.getByRole('button', { name: en.OpenMenu });
    expect(await burger.isVisible()).toBe(true);
    // Collapsed: moved off-screen and inert (out of the tab order and the accessibility tree).
    const navbar = page.locator('#main-navbar');
    expect(await navbar.getAttribute('inert')).not.toBeNull();
    expect(((await navbar.boundingBox())?.x ?? 0) + ((await navbar.boundingBox())?.width ?? 0)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'main-390x844');
    // The page prefers reduced motion (openPage): the sidebar appears without sliding in.
    const slide = () => navbar.evaluate((el) => getComputedStyle(el).transitionDuration);
    expect(await slide()).toBe('0s');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await poll(slide).toBe('0.2s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await poll(slide).toBe('0s');
    await burger.click();
    await poll(async () => (await navbar.boundingBox())?.x).toBe(0);
    expect(await navbar.getAttribute('inert')).toBeNull();
    expect(await page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Map, exact: true }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'main-menu-open-390x844');
    await page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Triplog, exact: true }).click();
    await page.waitForURL(`${app.url}/user/create-triplog`);
    // Choosing an item closes the menu again.
    await poll(() => page.getByRole('button', { name: en.OpenMenu }).isVisible()).toBe(true);
    expect(await navbar.getAttribute('inert')).not.toBeNull();
    await context.close();
  });

  it("ends a session the server no longer accepts ('Unauthenticated.') and returns to the login page", async () => {
    const { context, page } = await openPage();
    await page.goto(`${app.url}/`);
    await storeSession(page, { ID: 'gone', token: 'expired-or-revoked', FirstName: 'Old', LastName: 'Session', Email: 'old@demo.example' });
    await page.goto(`${app.url}/user/geofences`);
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
    expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
    await context.close();
  });

  it('refuses administration pages to an ordinary user', async () => {
    const { context, page } = await loggedIn(DESKTOP, 'user');
    await page.goto(`${app.url}/administration/user-accounts`);
    await poll(() => page.getByText(en.NoAccessToAdministratorPages).isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: en.MainNavigation }).getByText(en.Administration).count()).toBe(0);
    await context.close();
  });
});

describe('outbox page', () => {
  it('lists what the portal sent, filters by recipient and shows a message', async () => {
    const { mailer, sms } = getPorts();
    await mailer.send({ to: 'ada@example.com', subject: 'Your login code', text: 'Your code is 123456.', html: '<p>Your code is 123456.</p>' });
    await sms.send({ to: '+46701234567', text: 'Alarm: Service van 1 left its geofence.' });

    const { context, page, errors } = await openPage(PHONE);
    await page.goto(`${app.url}/dev/outbox`);
    await poll(() => page.getByRole('heading', { level: 1, name: en.OutboxTitle }).count()).toBe(1);
    await poll(() => page.getByRole('button', { name: en.OutboxShowText.replace('{{to}}', 'ada@example.com') }).count()).toBe(1);
    await page.getByRole('button', { name: en.OutboxShowText.replace('{{to}}', 'ada@example.com') }).click();
    await poll(() => page.getByText('Your code is 123456.').count()).toBe(1);
    await poll(async () => (await page.getByRole('list', { name: en.OutboxTitle }).textContent()) ?? '').toContain('+46701234567');

    await page.getByLabel(en.OutboxRecipient).fill('+46701234567');
    await poll(async () => (await page.getByRole('list', { name: en.OutboxTitle }).textContent()) ?? '').not.toContain('ada@example.com');
    await page.getByLabel(en.OutboxRecipient).fill('nobody@example.com');
    await poll(() => page.getByText(en.OutboxEmpty).count()).toBe(1);

    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'outbox-390x844');
    expect(errors).toEqual([]);
    await context.close();
  });
});
