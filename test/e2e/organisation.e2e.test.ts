/**
 * Departments, feature profiles and the support page in real Chromium against the embedded
 * runtime. demo-admin opens Organisation from the sidebar, adds a department (a duplicate name is
 * refused in the field), gives it the vans and Erik through the unit and user pickers (search and
 * select all shown), and makes a feature profile with the trip log only for Erik; the support
 * user lands on the support page, finds the demo account, unlocks the unit Erik locked and sets the
 * announcement the header's bar then shows; an ordinary user gets the no-access page there. Swedish and
 * Norwegian are languages.e2e.test.ts's; every screen checked with axe and photographed at 390 and 1280 px
 * (with SCREENSHOTS=1) into test-results/organisation/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoImei, demoSupportUser, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { organisationEn } from '../../shared/i18n/features/organisation/en';
import { supportEn } from '../../shared/i18n/features/support/en';
import { unitsEn } from '../../shared/i18n/features/units/en';
import type { UnitListItem } from '../../shared/schemas/units';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { type App, checkAndShoot, DESKTOP, logInAs, logInAt, openPage, PHONE, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;
let user: Caller;

const SHOTS = join(SHOTS_DIR, 'organisation');
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  // The pointer left over a button (where a closed dialog's button was) would photograph its hover state.
  await page.mouse.move(0, 0);
  await checkAndShoot(page, SHOTS, name, { sizes: [PHONE, DESKTOP], ...options });
  await page.setViewportSize(DESKTOP);
}

const logIn = (page: Page, username: string) => logInAs(page, app.url, username);

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
  user = await callerFor(demoUsers.user.username, DEMO_PASSWORD);
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const ERIK = `${demoUsers.user.firstName} ${demoUsers.user.lastName}`;

describe('organisation and support', () => {
  it('adds a department, assigns it to units and a user, and makes a feature profile', async () => {
    const { context, page, errors } = await openPage(browser);
    // Departments, tags, projects and feature profiles are tabs of the account page.
    await logInAt(page, app.url, '/administration/user-accounts', demoUsers.admin.username);
    await page.getByRole('tab', { name: organisationEn.OrgTabDepartments }).click();
    await page.waitForURL(/\/administration\/user-accounts\?tab=departments$/);

    const newName = page.getByRole('textbox', { name: organisationEn.OrgNewDepartments });
    await newName.fill('Workshop');
    await page.getByRole('button', { name: organisationEn.OrgAdd, exact: true }).click();
    await poll(() => page.getByRole('status').filter({ hasText: text(organisationEn.OrgAdded, { name: 'Workshop' }) }).isVisible()).toBe(true);
    await newName.fill('  workshop ');
    await page.getByRole('button', { name: organisationEn.OrgAdd, exact: true }).click();
    await poll(() => page.getByText(organisationEn.DuplicateDepartmentName).isVisible()).toBe(true);
    await shot(page, 'departments-duplicate');

    // The editor: units and users with their searches and select-all; at least one is needed.
    await page.getByRole('button', { name: text(organisationEn.OrgAssignNamed, { name: 'Workshop' }) }).first().click();
    const dialog = page.getByRole('dialog', { name: text(organisationEn.OrgAssignNamed, { name: 'Workshop' }) });
    const unitPicker = dialog.getByTestId('org-units');
    await poll(() => unitPicker.getByRole('textbox', { name: unitsEn.UnitPickerSearch }).isVisible()).toBe(true);
    await dialog.getByRole('button', { name: organisationEn.OrgSave }).click();
    await poll(() => dialog.getByText(organisationEn.SelectAtLeastOneUnitOrUser).isVisible()).toBe(true);
    await unitPicker.getByRole('textbox', { name: unitsEn.UnitPickerSearch }).fill('service van');
    await poll(() => unitPicker.getByRole('option').count()).toBe(2);
    await unitPicker.getByRole('button', { name: unitsEn.UnitPickerSelectAllMatching }).click();
    await dialog.getByRole('searchbox', { name: organisationEn.OrgSearchUsers }).fill('erik');
    await dialog.getByRole('checkbox', { name: ERIK }).check();
    await poll(() => dialog.getByText(text(organisationEn.OrgSelectedCount, { units: 2, users: 1 })).isVisible()).toBe(true);
    await shot(page, 'department-editor', { fullPage: false });
    await dialog.getByRole('button', { name: organisationEn.OrgSave }).click();
    await poll(() => page.getByRole('status').filter({ hasText: text(organisationEn.OrgAssignSaved, { name: 'Workshop' }) }).isVisible()).toBe(true);
    const units = (await callAs<UnitListItem[]>(app.url, 'GET', '/api/v1/user/units', user)).body.data ?? [];
    expect(units.filter((u) => u.departments.includes('Workshop')).map((u) => u.imei).sort()).toEqual([demoImei(0), demoImei(1)]);
    await shot(page, 'departments');

    // A feature profile with the trip log only, for Erik.
    await page.getByRole('tab', { name: organisationEn.OrgTabFeatureProfiles }).click();
    await page.getByRole('button', { name: organisationEn.ProfileNew }).click();
    const profile = page.getByRole('dialog', { name: organisationEn.ProfileNew });
    await profile.getByRole('textbox', { name: organisationEn.OrgName }).fill('Drivers');
    await profile.getByRole('button', { name: organisationEn.OrgSave }).click();
    await poll(() => profile.getByText(organisationEn.SelectAtLeastOneFeature).isVisible()).toBe(true);
    await profile.getByRole('checkbox', { name: organisationEn.ProfileFeatureTripLog }).first().check();
    await profile.getByRole('checkbox', { name: organisationEn.ProfileReportBenefitValue }).check();
    await profile.getByRole('checkbox', { name: ERIK }).check();
    await shot(page, 'profile-editor', { fullPage: false });
    await profile.getByRole('button', { name: organisationEn.OrgSave }).click();
    await poll(() => page.getByRole('status').filter({ hasText: text(organisationEn.FeatureProfileSaved, { name: 'Drivers' }) }).isVisible()).toBe(true);
    // Erik is limited at once: the map's units are refused.
    expect((await callAs(app.url, 'GET', '/api/v1/user/realtime/units', user)).body.message).toBe('FeatureNotInProfile');
    await shot(page, 'profiles');

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('lets support find an account, unlock a unit and set the announcement; others get no access', async () => {
    expect((await callAs(app.url, 'POST', `/api/v1/user/units/${demoImei(1)}/lock`, user)).status).toBe(200);
    const { context, page, errors } = await openPage(browser);
    await logIn(page, demoSupportUser.username);
    await page.waitForURL(/\/support$/);
    await page.getByRole('textbox', { name: supportEn.SupportSearchText }).fill('demo');
    await page.getByRole('button', { name: supportEn.SupportSearch, exact: true }).click();
    await page.getByRole('button', { name: text(supportEn.SupportShowUnitsOf, { name: 'Demo Fleet AB' }) }).first().click();
    const unlock = page.getByRole('button', { name: text(supportEn.SupportUnlockNamed, { name: 'Service van 2' }) }).first();
    await poll(() => unlock.isVisible()).toBe(true);
    await shot(page, 'support-units');
    await unlock.click();
    await poll(() => page.getByRole('status').filter({ hasText: text(supportEn.SupportUnlockDone, { name: 'Service van 2' }) }).isVisible()).toBe(true);

    await page.getByRole('textbox', { name: supportEn.SupportAnnouncementText }).fill('Planned maintenance tonight 22-23.');
    await page.getByRole('button', { name: supportEn.SupportSaveAnnouncement }).click();
    await poll(() => page.getByRole('status').filter({ hasText: supportEn.SupportAnnouncementSaved }).isVisible()).toBe(true);
    // The header's bar shows it for this brand and language.
    await poll(() => page.getByRole('region', { name: en.Announcement, exact: true }).getByText('Planned maintenance tonight 22-23.').isVisible()).toBe(true);
    await poll(() => page.getByRole('table', { name: supportEn.SupportLogTitle }).getByText(supportEn.SupportActionUnlockUnit).isVisible()).toBe(true);
    await shot(page, 'support');
    expect(errors).toEqual([]);
    await context.close();

    // An ordinary user: no menu entry, and the address answers no access.
    const other = await openPage(browser);
    await logIn(other.page, demoUsers.user.username);
    // The menu is drawn (his trip log is in it) before what it lacks is counted.
    await poll(() => other.page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Triplog, exact: true }).isVisible()).toBe(true);
    expect(await other.page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Support, exact: true }).count()).toBe(0);
    // Erik's profile has the trip log only: no map in his menu.
    expect(await other.page.getByRole('navigation', { name: en.MainNavigation }).getByRole('link', { name: en.Map, exact: true }).count()).toBe(0);
    await other.page.goto(`${app.url}/support`);
    await poll(() => other.page.getByText(en.NoAccessToSupportPages).isVisible()).toBe(true);
    await shot(other.page, 'support-no-access');
    await other.context.close();
  }, 180_000);
});
