/**
 * RFID cards in real Chromium against the embedded runtime. Two cards come from the phone app's
 * API and a read of an unknown card from telemetry's note; demo-admin opens RFID cards from the
 * sidebar (told once how a card is added: read it on a reader, then add it here), adds the unknown
 * card with its owner, edits a card (the name is required, the owner chosen), pairs one with Service van 1's reader (pending until the tracker
 * answers), unpairs and deletes one after a confirmation (Swedish and Norwegian: languages.e2e.test.ts). With
 * RFID off the page is gone from the menu and its address goes to the map. Every screen is checked
 * with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/rfid/.
 */
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { noteUnknownRead } from '../../functions/rfid/rfid-repository';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { rfidEn } from '../../shared/i18n/features/rfid/en';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { type App, logInAs, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
let admin: Caller;

const SHOTS = join(SHOTS_DIR, 'rfid');
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

const shot = shooter(SHOTS);

const logIn = (page: Page) => logInAs(page, app.url);

const setRfid = (on: boolean) =>
  dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: admin.accountId }, UpdateExpression: 'SET features.rfid = :v', ExpressionAttributeValues: { ':v': on } }));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  // Cards as the phone app adds them.
  for (const body of [
    { cardId: '00A1B2C3', name: 'Blue key tag', description: 'Spare tag kept in the office safe, for visiting service technicians' },
    { cardId: 'card-7', name: 'Alva\'s card' },
  ]) {
    const r = await callAs(app.url, 'POST', '/api/v1/user/rfid-cards', admin, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  await noteUnknownRead(admin.accountId, '99FF00EE', demoImei(2), Date.UTC(2025, 0, 2, 9, 30));
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

describe('RFID cards', () => {
  it('lists cards, adds one a reader read, edits, pairs, unpairs and deletes cards', async () => {
    const { context, page, errors } = await openPage(browser);
    await logInAt(page, app.url, '/administration/rfid-cards');
    await poll(() => row(page, 'Blue key tag').isVisible()).toBe(true);
    // How to add a card is said once.
    expect(await page.getByText(rfidEn.RfidPageIntro).count()).toBe(1);
    expect(await row(page, 'Blue key tag').getByText(rfidEn.RfidNotPaired).isVisible()).toBe(true);
    expect(await row(page, 'Blue key tag').getByText('Alva Andersson').isVisible()).toBe(true);
    expect(await page.getByText(/^Card 99FF00EE on Delivery lorry, last read .+ \(reads: 1\)$/).isVisible()).toBe(true);
    await shot(page, 'rfid-list');

    // The card a reader read is added here, with its owner; its unknown read goes.
    await page.getByRole('button', { name: text(rfidEn.RfidAddCardLabel, { card: '99FF00EE' }) }).click();
    const adding = page.getByRole('dialog', { name: rfidEn.RfidAddTitle });
    await poll(() => adding.isVisible()).toBe(true);
    await adding.getByRole('textbox', { name: rfidEn.RfidFieldName }).fill('Found card');
    await adding.getByRole('combobox', { name: rfidEn.RfidFieldOwner }).click();
    await page.getByRole('option', { name: 'Erik Lind' }).click();
    await adding.getByRole('button', { name: rfidEn.RfidSave }).click();
    await poll(() => page.getByText(rfidEn.RfidAdded).isVisible()).toBe(true);
    await poll(() => row(page, 'Found card').isVisible()).toBe(true);
    expect(await page.getByText(/^Card 99FF00EE on /).count()).toBe(0);

    // Edit: the name is required, the owner chosen from the account's users.
    await page.getByRole('button', { name: text(rfidEn.RfidEditCard, { name: 'Blue key tag' }) }).click();
    const dialog = page.getByRole('dialog', { name: rfidEn.RfidEditTitle });
    await poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('textbox', { name: rfidEn.RfidFieldName }).fill('');
    await dialog.getByRole('button', { name: rfidEn.RfidSave }).click();
    await poll(() => dialog.getByText(rfidEn.RfidCardNameRequired).isVisible()).toBe(true);
    await shot(page, 'rfid-edit-errors', { fullPage: false });
    await dialog.getByRole('textbox', { name: rfidEn.RfidFieldName }).fill('Erik\'s key tag');
    await dialog.getByRole('combobox', { name: rfidEn.RfidFieldOwner }).click();
    await page.getByRole('option', { name: 'Erik Lind' }).click();
    await dialog.getByRole('button', { name: rfidEn.RfidSave }).click();
    await poll(() => page.getByRole('status').filter({ hasText: rfidEn.RfidSaved }).isVisible()).toBe(true);
    await poll(() => row(page, 'Erik\'s key tag').getByText('Erik Lind').isVisible()).toBe(true);

    // Pair with Service van 1's reader: the reader id is checked, then the command waits for the tracker.
    await page.getByRole('button', { name: text(rfidEn.RfidPairCard, { name: 'Erik\'s key tag' }) }).click();
    const pairDialog = page.getByRole('dialog', { name: rfidEn.RfidPairTitle });
    await pairDialog.getByRole('combobox', { name: rfidEn.RfidFieldUnit }).click();
    await page.getByRole('option', { name: 'Service van 1 (ABC123)' }).click();
    await pairDialog.getByRole('textbox', { name: rfidEn.RfidFieldReaderId }).fill('reader 1');
    await pairDialog.getByRole('button', { name: rfidEn.RfidPairSend }).click();
    await poll(() => pairDialog.getByText(rfidEn.RfidReaderIdInvalid).isVisible()).toBe(true);
    await pairDialog.getByRole('textbox', { name: rfidEn.RfidFieldReaderId }).fill('rdr-100');
    await shot(page, 'rfid-pair', { fullPage: false });
    await pairDialog.getByRole('button', { name: rfidEn.RfidPairSend }).click();
    await poll(() => page.getByRole('status').filter({ hasText: rfidEn.RfidPairSent }).isVisible()).toBe(true);
    const paired = row(page, 'Erik\'s key tag');
    await poll(() => paired.getByText(text(rfidEn.RfidReaderOn, { reader: 'RDR-100', unit: 'Service van 1' })).isVisible()).toBe(true);
    expect(await paired.getByText(rfidEn.RfidStatusPending).isVisible()).toBe(true);
    await shot(page, 'rfid-paired');

    // Unpair, then delete the other card after a confirmation.
    await page.getByRole('button', { name: text(rfidEn.RfidUnpairCard, { name: 'Erik\'s key tag' }) }).click();
    await poll(() => paired.getByText(rfidEn.RfidNotPaired).isVisible()).toBe(true);
    await page.getByRole('button', { name: text(rfidEn.RfidDeleteCard, { name: 'Alva\'s card' }) }).click();
    const confirm = page.getByRole('dialog', { name: rfidEn.RfidDeleteTitle });
    await poll(() => confirm.getByText(text(rfidEn.RfidDeleteConfirm, { name: 'Alva\'s card' })).isVisible()).toBe(true);
    await shot(page, 'rfid-delete', { fullPage: false });
    await confirm.getByRole('button', { name: rfidEn.RfidDelete }).click();
    await poll(() => row(page, 'Alva\'s card').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);

  it('is gone with RFID off: no menu entry, and the address goes to the map', async () => {
    await setRfid(false);
    try {
      const { context, page } = await openPage(browser);
      await logIn(page);
      await page.goto(`${app.url}/administration/rfid-cards`);
      await page.waitForURL(`${app.url}/user/realtime-tracking`);
      expect(await page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.ManageRFIDCards, exact: true }).count()).toBe(0);
      await context.close();
    } finally {
      await setRfid(true);
    }
  }, 60_000);
});
