/**
 * The developer outbox page (/dev/outbox) in real Chromium against the embedded runtime, filled
 * with messages the product really sent: a welcome e-mail to a long address (registration), two
 * password-reset e-mails with their long links (forgot password), and an SMS. At 390 px the page
 * does not scroll sideways, the open message stays inside the viewport, and axe finds nothing; at
 * 1280 px the same, with the messages still a table. Screenshots go to test-results/ (gitignored).
 */
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPorts } from '../../functions/platform/container';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { no } from '../../shared/i18n/no';
import { sv } from '../../shared/i18n/sv';
import type { OutboxMessage } from '../../shared/schemas/system';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, openPage, poll, startBrowserApp, stopBrowserApp, type App, photograph } from '../support/browser';
import { wizardPrivate } from '../support/registration';

/** Long enough to overflow a phone in any one line: the local part alone is wider than 390 px. */
const LONG_EMAIL = 'anna-margareta.svensson-lindqvist.fleetmanager@bygg-och-transport-aktiebolaget-i-norrland.example';
const PASSWORD = 'Secret-pass1';
const SMS_TO = '+46701234567';

let app: App;
let browser: Browser;

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.ok, `${path}: ${res.status} ${await res.text()}`).toBe(true);
}

async function outbox(to: string): Promise<OutboxMessage[]> {
  const res = await fetch(`${app.url}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await res.json()) as { data: OutboxMessage[] }).data;
}

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  // A new customer with a long e-mail address: the welcome e-mail.
  await post('/api/v1/register-account', wizardPrivate(demoImei(100), LONG_EMAIL, PASSWORD, { lastName: 'Svensson-Lindqvist', comment: undefined, lang: 'en' }));

  // Password-reset e-mails: a link far wider than a phone.
  await post('/api/v1/forgot-password', { subsite_id: 0, email_address: LONG_EMAIL, lang: 'en' });
  await post('/api/v1/forgot-password', { subsite_id: 0, email_address: demoUsers.admin.email, lang: 'en' });
  // Nothing in the product sends an SMS on its own yet; the port is what an alarm would use.
  await getPorts().sms.send({ to: SMS_TO, text: 'Alarm: Service van 1 left its geofence "Depot Sundsvall" at 07:42. https://maps.example/units/356938035643809?from=alarm' });
  // The outbox is written before each request answers.
  expect((await outbox(LONG_EMAIL)).map((m) => m.subject)).toEqual([expect.stringMatching(/password/i), expect.stringMatching(/welcome/i)]);
  expect(await outbox(demoUsers.admin.email)).toHaveLength(1);
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const showText = (page: Page, to: string) => page.getByRole('button', { name: en.OutboxShowText.replace('{{to}}', to) });

/** How far the document scrolls sideways (0: not at all). */
const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The element's box lies within the viewport's width (and, with `ownContent`, its content does not overflow the box). */
async function expectWithinViewport(page: Page, locator: Locator, what: string, ownContent = false): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box?.x ?? -1, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Infinity), `${what}: right edge`).toBeLessThanOrEqual(width);
  if (ownContent) expect(await locator.evaluate((el) => el.scrollWidth - el.clientWidth), `${what}: overflows itself`).toBeLessThanOrEqual(0);
}

async function openOutbox(viewport: { width: number; height: number }) {
  const opened = await openPage(browser, viewport);
  await opened.page.goto(`${app.url}/dev/outbox`);
  await poll(() => opened.page.getByRole('heading', { level: 1, name: en.OutboxTitle }).count()).toBe(1);
  await poll(() => showText(opened.page, LONG_EMAIL).count()).toBe(2);
  await poll(() => showText(opened.page, SMS_TO).count()).toBe(1);
  return opened;
}

describe('outbox page', () => {
  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`reads at ${viewport.width} px: no sideways scroll, the open message inside the viewport, no axe violation (${name})`, async () => {
      const { context, page, errors } = await openOutbox(viewport);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await photograph(page, join(SHOTS_DIR, `outbox-list-${viewport.width}.png`), { fullPage: true });

      // The newest message to the long address is the reset e-mail; open it.
      const toggle = showText(page, LONG_EMAIL).first();
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const bodyId = await toggle.getAttribute('aria-controls');
      expect(bodyId, 'the toggle names the message it opens (aria-controls)').toBeTruthy();
      const body = page.locator(`[id="${bodyId}"]`);
      await poll(() => body.isVisible()).toBe(true);
      expect(await body.textContent()).toMatch(/reset-password\?_c=/);
      expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
      await expectWithinViewport(page, body, 'the open message', true);
      await expectWithinViewport(page, body.getByRole('link', { name: /reset-password\?_c=/ }), 'the reset link');
      await expectWithinViewport(page, page.getByText(LONG_EMAIL, { exact: false }).first(), 'the long address');
      await expectWithinViewport(page, toggle, 'the subject');
      // A finger-sized target: the whole subject row opens the message.
      expect((await toggle.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      expect(await axeViolations(page)).toEqual([]);
      await photograph(page, join(SHOTS_DIR, `outbox-open-${viewport.width}.png`), { fullPage: true });

      // Closes again from the keyboard.
      await toggle.focus();
      await page.keyboard.press('Enter');
      await poll(() => body.isVisible()).toBe(false);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // Swedish and Norwegian labels are longer; the filters still fit.
      for (const [lang, texts] of [
        ['sv', sv],
        ['no', no],
      ] as const) {
        await page.getByRole('combobox', { name: /Language|Språk/ }).selectOption(lang);
        await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(texts.OutboxTitle);
        expect(await sidewaysScroll(page), lang).toBeLessThanOrEqual(0);
        await expectWithinViewport(page, page.getByRole('radiogroup'), `the kind filter (${lang})`, true);
        await photograph(page, join(SHOTS_DIR, `outbox-list-${lang}-${viewport.width}.png`), { fullPage: true });
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
