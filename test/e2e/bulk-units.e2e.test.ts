/**
 * Bulk unit tasks in real Chromium against the embedded runtime. demo-admin selects units in the
 * units list (a checkbox per unit, by keyboard too, and one for the page), sets their operating
 * mode (the result per unit), switches output 1 (labelled as an immobiliser on one unit, so a
 * confirmation naming it comes first), assigns an alarm receiver and adds a department; the results table tells what
 * happened to each (Swedish and Norwegian: languages.e2e.test.ts); every screen checked with axe and photographed
 * at 390 and 1280 px (with SCREENSHOTS=1) into test-results/bulk-units/.
 */
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { bulkUnitsEn } from '../../shared/i18n/features/bulk-units/en';
import { commandsEn } from '../../shared/i18n/features/commands/en';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { type App, logInAt, openPage, poll, shooter, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
let admin: Caller;
let receiverId: string;

const SHOTS = join(SHOTS_DIR, 'bulk-units');
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

const shot = shooter(SHOTS);

/** Logs demo-admin in on the way to the unit list. */
const logIn = (page: Page) => logInAt(page, app.url, '/user/edit-terminal-list');

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  // Service van 2's output 1 drives its immobiliser.
  await dynamo().send(
    new UpdateCommand({ TableName: tableName('units'), Key: { imei: demoImei(1) }, UpdateExpression: 'SET doutLabels = :l', ExpressionAttributeValues: { ':l': { '1': 'Immobiliser' } } }),
  );
  const created = await callAs<{ id: string }>(app.url, 'POST', '/api/v1/administration/alarm-receivers', admin, {
    member_id: null, name: 'Night guard', email: 'guard@example.se', country_code: '46', phone: '', push_notification: false, function_alarm: 1, security_alarm: 1,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  receiverId = created.body.data?.id as string;
  const department = await callAs(app.url, 'POST', '/api/v1/administration/organisation/departments', admin, { name: 'North depot' });
  expect(department.status, JSON.stringify(department.body)).toBe(201);
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const results = (page: Page) => page.getByRole('table', { name: bulkUnitsEn.BulkResultsTitle });

describe('bulk unit tasks', () => {
  it('selects units and sets their operating mode, switches an immobiliser after a confirmation, and assigns an alarm receiver', async () => {
    const { context, page, errors } = await openPage(browser);
    await logIn(page);
    await poll(() => page.getByText(bulkUnitsEn.BulkHint).isVisible()).toBe(true);

    // One unit by keyboard (Space on its checkbox), one by a click.
    const van1 = page.getByRole('checkbox', { name: text(bulkUnitsEn.BulkSelectUnit, { name: 'Service van 1' }) });
    await van1.focus();
    await page.keyboard.press('Space');
    await page.getByRole('checkbox', { name: text(bulkUnitsEn.BulkSelectUnit, { name: 'Service van 2' }) }).click();
    await poll(() => page.getByText(text(bulkUnitsEn.BulkSelectedCount, { count: 2 })).isVisible()).toBe(true);
    expect(await page.getByRole('checkbox', { name: bulkUnitsEn.BulkSelectAll }).isChecked()).toBe(false);

    // Without a mode: said beside the field.
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 2 }) }).click();
    await poll(() => page.getByText(commandsEn.InvalidOperatingMode).isVisible()).toBe(true);
    await page.getByRole('combobox', { name: bulkUnitsEn.BulkModeLabel }).click();
    await page.getByRole('option', { name: commandsEn.OperatingModeFixed1h }).click();
    await shot(page, 'bulk-mode');
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 2 }) }).click();
    await poll(() => page.getByText(text(bulkUnitsEn.BulkResultsSummary, { ok: 2, count: 2 })).isVisible()).toBe(true);
    expect(await results(page).getByRole('row').filter({ hasText: 'Service van 1' }).getByText(bulkUnitsEn.BulkResultCommandSent).isVisible()).toBe(true);
    await shot(page, 'bulk-mode-results');

    // DOUT 1: Service van 2 names it an immobiliser, so a confirmation names that unit first.
    await page.getByRole('combobox', { name: bulkUnitsEn.BulkActionLabel }).click();
    await page.getByRole('option', { name: bulkUnitsEn.BulkActionDout }).click();
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 2 }) }).click();
    const confirm = page.getByRole('dialog', { name: bulkUnitsEn.BulkConfirmTitle });
    await poll(() => confirm.getByText(text(bulkUnitsEn.BulkConfirmRelay, { output: 1, units: 'Service van 2' })).isVisible()).toBe(true);
    await shot(page, 'bulk-dout-confirm', { fullPage: false });
    // Cancelled: nothing was sent, not even to the server.
    const bulkPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/user/units/bulk') bulkPosts.push(request.url());
    });
    await confirm.getByRole('button', { name: bulkUnitsEn.BulkCancel, exact: true }).last().click();
    await poll(() => confirm.isVisible()).toBe(false);
    expect(bulkPosts).toEqual([]);
    expect(await results(page).count()).toBe(0);
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 2 }) }).click();
    await confirm.getByRole('button', { name: bulkUnitsEn.BulkConfirmSwitch }).click();
    await poll(() => page.getByText(text(bulkUnitsEn.BulkResultsSummary, { ok: 2, count: 2 })).isVisible()).toBe(true);
    expect(bulkPosts).toHaveLength(1);

    // Every unit on the page, then an alarm receiver for all of them.
    await page.getByRole('checkbox', { name: bulkUnitsEn.BulkSelectAll }).check();
    await poll(() => page.getByText(text(bulkUnitsEn.BulkSelectedCount, { count: 5 })).isVisible()).toBe(true);
    await page.getByRole('combobox', { name: bulkUnitsEn.BulkActionLabel }).click();
    await page.getByRole('option', { name: bulkUnitsEn.BulkActionAlarmReceivers }).click();
    await page.getByRole('combobox', { name: bulkUnitsEn.BulkReceiversLabel }).click();
    await page.getByRole('option', { name: 'Night guard' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 5 }) }).click();
    await poll(() => page.getByText(text(bulkUnitsEn.BulkResultsSummary, { ok: 5, count: 5 })).isVisible()).toBe(true);
    const receiver = await dynamo().send(new GetCommand({ TableName: tableName('alarmReceivers'), Key: { accountId: admin.accountId, id: receiverId }, ConsistentRead: true }));
    expect([...(receiver.Item?.['gpsImeis'] as string[])].sort()).toEqual([0, 1, 2, 3, 4].map(demoImei).sort());
    await shot(page, 'bulk-receivers-results');

    // A department for all of them: the list shows it on every row once done.
    await page.getByRole('combobox', { name: bulkUnitsEn.BulkActionLabel }).click();
    await page.getByRole('option', { name: bulkUnitsEn.BulkActionDepartments }).click();
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 5 }) }).click();
    await poll(() => page.getByText(bulkUnitsEn.BulkSelectDepartments).isVisible()).toBe(true);
    await page.getByRole('combobox', { name: bulkUnitsEn.BulkDepartmentsLabel }).click();
    await page.getByRole('option', { name: 'North depot' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: text(bulkUnitsEn.BulkRun, { count: 5 }) }).click();
    // The receivers run's summary reads the same: the row's new department shows this run's.
    await poll(() => page.getByRole('row').filter({ hasText: 'Service van 1' }).filter({ hasText: 'North depot' }).count()).toBe(1);
    await poll(() => page.getByText(text(bulkUnitsEn.BulkResultsSummary, { ok: 5, count: 5 })).isVisible()).toBe(true);
    await shot(page, 'bulk-departments-results');

    await page.getByRole('button', { name: bulkUnitsEn.BulkClearSelection }).click();
    await poll(() => page.getByText(text(bulkUnitsEn.BulkSelectedCount, { count: 0 })).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);
});
