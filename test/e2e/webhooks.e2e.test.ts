/**
 * The webhooks page in real Chromium against the embedded runtime (docs/api.md Webhooks): the demo
 * admin finds it in the Administration menu, creates a webhook to a local receiver (the form's own
 * refusal first, then the server's), copies nothing but sees the secret once, sends a test delivery
 * and finds it delivered in the deliveries view, edits it to paused, and deletes it. The list, the
 * form, the secret and the deliveries are checked with axe at 390 and 1280 px and photographed into
 * test-results/webhook/ with SCREENSHOTS=1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUsers } from '../../infra/local/seed';
import { webhooksEn as w } from '../../shared/i18n/features/webhooks/en';
import { type App, checkAndShoot, DESKTOP, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

const SHOTS = join(SHOTS_DIR, 'webhook');
const PAGE = '/administration/webhooks';
let app: App;
let browser: Browser;
let receiver: Server;
let receiverUrl = '';
let received = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/fleet`;
  ({ app, browser } = await startBrowserApp());
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
  await new Promise((resolve) => receiver?.close(resolve));
});

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const shot = async (page: Page, name: string) => {
  await checkAndShoot(page, SHOTS, name, { sizes: [PHONE, DESKTOP] });
  await page.setViewportSize(DESKTOP);
};

describe('webhooks page', () => {
  it('creates, tests, shows deliveries, pauses and deletes a webhook', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, PAGE, demoUsers.admin.username);
    await page.getByRole('link', { name: 'Webhooks' }).first().waitFor();
    await page.getByText(w.WebhookNone).waitFor();

    await page.getByRole('button', { name: w.WebhookAdd }).click();
    const form = dialog(page, w.WebhookNewTitle);
    await form.getByLabel(w.WebhookUrl).fill('http://10.0.0.1/hook');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(w.WebhookEventsRequired).waitFor();
    await form.getByRole('checkbox', { name: w.WebhookEvent_alarm }).check();
    await form.getByRole('checkbox', { name: w.WebhookEvent_tripClosed }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(w.WebhookUrlInvalid).waitFor();
    await shot(page, 'form');
    await form.getByLabel(w.WebhookUrl).fill(receiverUrl);
    await form.getByRole('button', { name: 'Save' }).click();

    const secret = dialog(page, w.WebhookSecretTitle);
    await poll(() => secret.getByLabel(w.WebhookSecretLabel).inputValue()).toMatch(/^whsec_/);
    await shot(page, 'secret');
    await secret.getByRole('button', { name: w.WebhookDone }).click();

    const row = page.getByTestId('webhook-row');
    await poll(() => row.count()).toBe(1);
    expect(await row.getByText(receiverUrl).isVisible()).toBe(true);
    await row.getByRole('button', { name: w.WebhookTestFor.replace('{{url}}', receiverUrl) }).click();
    await poll(() => received).toBe(1);
    await shot(page, 'list');

    await row.getByRole('button', { name: w.WebhookDeliveriesFor.replace('{{url}}', receiverUrl) }).click();
    const log = dialog(page, w.WebhookDeliveriesFor.replace('{{url}}', receiverUrl));
    await poll(async () => {
      await log.getByRole('button', { name: w.WebhookDeliveriesRefresh }).click();
      // The table row (the phone's cards are hidden at this width).
      return log.getByTestId('webhook-delivery-row').getByText(w.WebhookDelivery_succeeded).isVisible();
    }).toBe(true);
    await shot(page, 'deliveries');
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: w.WebhookEditFor.replace('{{url}}', receiverUrl) }).click();
    const edit = dialog(page, w.WebhookEditTitle);
    await edit.getByRole('switch', { name: w.WebhookActive }).uncheck({ force: true });
    await edit.getByRole('button', { name: 'Save' }).click();
    await row.getByText(w.WebhookStatusPausedAdmin).waitFor();

    await row.getByRole('button', { name: w.WebhookDeleteFor.replace('{{url}}', receiverUrl) }).click();
    await page.getByTestId('webhook-delete-confirm').click();
    await page.getByText(w.WebhookNone).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
