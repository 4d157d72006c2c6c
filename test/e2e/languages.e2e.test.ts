/**
 * The Swedish and Norwegian sweep: in one runtime and one browser, every main screen of the portal
 * once in Swedish and once in Norwegian. Each screen must render translated: the document's
 * language and title in that language, no i18n key shown as text (or inside a text), and no
 * English text of the portal's resources where the language has its own (text, labels,
 * placeholders, titles), checked against shared/i18n; no screen wider than the window. axe checks
 * each screen once per language, Swedish at desktop width and Norwegian at phone width; the feature files check their screens in English at phone and desktop width and
 * drive their flows there. That every key has a text in every language is test/i18n's part.
 */
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoImei, demoSupportUser, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { resources, type Messages } from '../../shared/i18n/index';
import type { Language } from '../../shared/schemas/common';
import { subscriptionTypes } from '../../shared/schemas/unit-editor';
import { pageTitleKeys, paths, type PathName } from '../../web/src/app/paths';
import { axeViolations, DESKTOP, logInAs, openAllSections, openPage, PHONE, photograph, poll, settle, SHOTS_DIR, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'languages');

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

interface Screen {
  /** Short name for messages and photographs. */
  name: string;
  /** The route, with its query if any. */
  path: string;
  /** The route's name, for its page title. */
  route: PathName;
  /** Something of the feature's own texts, shown once the screen has loaded. */
  ready: (page: Page, t: Messages) => Locator;
  /** What to open before the check (closed sections, say). */
  prepare?: (page: Page, t: Messages) => Promise<void>;
}

const adminScreens: readonly Screen[] = [
  { name: 'fleet-overview', path: paths.fleetOverview, route: 'fleetOverview', ready: (p, t) => p.getByRole('heading', { name: t.FleetStatusHeading }) },
  { name: 'map', path: paths.realtimeTracking, route: 'realtimeTracking', ready: (p, t) => p.getByRole('list', { name: t.MapUnitsHeading }).getByRole('button').first() },
  { name: 'triplog', path: paths.createTriplog, route: 'createTriplog', ready: (p, t) => p.getByRole('main').getByText(t.TripTypeBusiness, { exact: true }).first() },
  { name: 'geofences', path: paths.geofences, route: 'geofences', ready: (p, t) => p.getByRole('link', { name: t.GeofenceAdd }) },
  { name: 'geofence-editor', path: paths.addEditGeofence, route: 'addEditGeofence', ready: (p, t) => p.getByRole('button', { name: t.GeofenceSave }) },
  { name: 'places', path: paths.places, route: 'places', ready: (p, t) => p.getByText(t.PlacesIntro) },
  { name: 'place-editor', path: paths.addEditPlace, route: 'addEditPlace', ready: (p, t) => p.getByRole('textbox', { name: t.PlaceLabel, exact: true }) },
  { name: 'units', path: paths.editTerminalList, route: 'editTerminalList', ready: (p, t) => p.getByText(t.BulkHint) },
  {
    name: 'unit-editor',
    path: `${paths.editTerminal}?imei=${demoImei(0)}`,
    route: 'editTerminal',
    ready: (p, t) => p.getByRole('form', { name: t.UnitEditorReporting, exact: true }),
    prepare: async (p, t) => {
      await poll(() => p.getByRole('button', { name: t.UnitEditorBasics }).isVisible()).toBe(true);
      await openAllSections(p);
    },
  },
  { name: 'car-schedule', path: paths.carSchedule, route: 'carSchedule', ready: (p, t) => p.getByRole('button', { name: t.CsMyBooking }) },
  { name: 'alerts', path: paths.alerts, route: 'alerts', ready: (p, t) => p.getByRole('heading', { name: t.Alerts, exact: true }) },
  { name: 'user-accounts', path: paths.userAccounts, route: 'userAccounts', ready: (p, t) => p.getByRole('tab', { name: t.UaTabUsers, selected: true }) },
  { name: 'account-settings', path: `${paths.userAccounts}?tab=settings`, route: 'userAccounts', ready: (p, t) => p.getByRole('tab', { name: t.UaTabSettings, selected: true }) },
  { name: 'departments', path: `${paths.userAccounts}?tab=departments`, route: 'userAccounts', ready: (p, t) => p.getByRole('textbox', { name: t.OrgNewDepartments }) },
  { name: 'feature-profiles', path: `${paths.userAccounts}?tab=featureProfiles`, route: 'userAccounts', ready: (p, t) => p.getByRole('button', { name: t.ProfileNew }) },
  { name: 'add-unit', path: paths.addTerminal, route: 'addTerminal', ready: (p, t) => p.getByRole('button', { name: t.AddUnitSubmit }) },
  { name: 'safe-home', path: paths.safeReturnHome, route: 'safeReturnHome', ready: (p, t) => p.getByText(t.SafeHomeIntro) },
  { name: 'alarm-receivers', path: paths.alarmReceiver, route: 'alarmReceiver', ready: (p, t) => p.getByRole('heading', { name: t.AlarmReceiver }) },
  { name: 'rfid-cards', path: paths.rfidCards, route: 'rfidCards', ready: (p, t) => p.getByText(t.RfidPageIntro) },
  { name: 'alert-numbers', path: paths.alertNumbers, route: 'alertNumbers', ready: (p, t) => p.getByRole('heading', { name: t.AlertNumbers }) },
  { name: 'attest-status', path: paths.attestStatus, route: 'attestStatus', ready: (p, t) => p.getByRole('heading', { name: t.AttestStatus }) },
  { name: 'my-trips', path: paths.myTrips, route: 'myTrips', ready: (p, t) => p.getByText(t.MyTripsIntro) },
  { name: 'api-keys', path: paths.apiKeys, route: 'apiKeys', ready: (p, t) => p.getByRole('button', { name: t.ApiKeysCreate }) },
  { name: 'webhooks', path: paths.webhooks, route: 'webhooks', ready: (p, t) => p.getByRole('button', { name: t.WebhookAdd }) },
];

const supportScreens: readonly Screen[] = [{ name: 'support', path: paths.support, route: 'support', ready: (p, t) => p.getByRole('heading', { name: t.SupportLogTitle }) }];

/** What the page says: its text nodes, and the labels, placeholders, titles and alternatives of its elements. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && !['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) texts.push(node.textContent ?? '');
    }
    for (const element of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt], [aria-roledescription]')) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt', 'aria-roledescription']) {
        const value = element.getAttribute(name);
        if (value) texts.push(value);
      }
    }
    return texts.map((text) => text.replace(/\s+/g, ' ').trim()).filter(Boolean);
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a page in `lang` must not say: the keys themselves, and the English texts the language has its own for. */
function untranslated(lang: Exclude<Language, 'en'>) {
  const english = resources.en as Readonly<Record<string, string>>;
  const own = resources[lang] as Readonly<Record<string, string>>;
  const ownTexts = new Set(Object.values(own));
  // A key that looks like one (PascalCase with a second word, or with an underscore), wherever it stands in a text.
  const keyLike = new Set(Object.keys(english).filter((key) => /^[A-Z][A-Za-z0-9]*([a-z0-9][A-Z]|_)[A-Za-z0-9_]*$/.test(key) && !ownTexts.has(key)));
  const exact = new Set<string>();
  const templates: RegExp[] = [];
  for (const [key, text] of Object.entries(english)) {
    if (text === own[key] || ownTexts.has(text) || !/[A-Za-z]{2}/.test(text)) continue;
    if (/\{\{/.test(text)) {
      const literal = text.replace(/\{\{[^}]+\}\}/g, '');
      if (literal.replace(/[^A-Za-z]/g, '').length >= 6) templates.push(new RegExp(`^${text.split(/\{\{[^}]+\}\}/).map(escape).join('.+')}$`, 's'));
    } else exact.add(text);
  }
  // The language picker names each language in its own language.
  for (const name of ['English', 'Svenska', 'Norsk']) exact.delete(name);
  // Data that happens to match an English text: a demo unit's name, and the subscriptions' product names.
  for (const name of ['Excavator', ...subscriptionTypes]) exact.delete(name);
  // Keys that are themselves sentences ('Unauthenticated.') only as a whole text.
  for (const key of Object.keys(english)) if (/[ .]/.test(key) && !ownTexts.has(key)) exact.add(key);
  return (texts: readonly string[]): string[] => {
    const found = new Set<string>();
    for (const text of texts) {
      for (const word of text.match(/[A-Za-z][A-Za-z0-9_]+/g) ?? []) if (keyLike.has(word)) found.add(`key ${word} in "${text}"`);
      if (exact.has(text) || templates.some((template) => template.test(text))) found.add(`English "${text}"`);
    }
    return [...found];
  };
}

/**
 * Logs in (the form in English), picks `lang` in the header and checks each screen in it, at the
 * given size. Swedish at desktop width, Norwegian on a phone: the longer words of both languages
 * must not make a screen wider than the phone (it would scroll sideways and cut the page off).
 */
async function sweep(lang: Exclude<Language, 'en'>, username: string, screens: readonly Screen[], viewport: { width: number; height: number }): Promise<void> {
  const t = resources[lang];
  const check = untranslated(lang);
  const { context, page, errors } = await openPage(browser, viewport);
  await logInAs(page, app.url, username);
  await page.getByLabel(en.Language, { exact: true }).selectOption(lang);
  await poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang === 'no' ? 'nb' : lang);
  const failures: string[] = [];
  for (const screen of screens) {
    // In the running app, as a link would (a page load per screen would cost the sweep most of its time).
    await page.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, screen.path);
    await screen.prepare?.(page, t);
    const until = { timeout: 10_000, interval: 100, message: `${screen.name} in ${lang}` };
    await expect.poll(() => screen.ready(page, t).isVisible(), until).toBe(true);
    await expect.poll(() => page.title(), until).toContain(t[pageTitleKeys[screen.route] as keyof Messages]);
    await settle(page);
    failures.push(...check(await pageTexts(page)).map((problem) => `${screen.name}: ${problem}`));
    failures.push(...(await axeViolations(page)).map((violation) => `${screen.name}: ${violation}`));
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (wider > 0) failures.push(`${screen.name}: ${wider} px wider than the ${viewport.width} px screen`);
    await photograph(page, join(SHOTS, `${screen.name}-${lang}-${viewport.width}.png`), { fullPage: true });
  }
  expect(failures, lang).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
}

describe('the portal in Swedish and Norwegian', () => {
  for (const [lang, viewport] of [['sv', DESKTOP], ['no', PHONE]] as const) {
    it(`shows every screen of an administrator translated into ${lang} at ${viewport.width} px, and passes axe`, () => sweep(lang, demoUsers.admin.username, adminScreens, viewport), 240_000);
    it(`shows the support page translated into ${lang} at ${viewport.width} px, and passes axe`, () => sweep(lang, demoSupportUser.username, supportScreens, viewport));
  }
});
