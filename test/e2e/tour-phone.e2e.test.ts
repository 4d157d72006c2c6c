/**
 * One phone rule on every screen that takes a phone number (docs/decisions/0030-one-phone-rule.md):
 * the registration wizard, the alarm receiver form and the profile take 070 123 45 67 as a Swede
 * types it and show it back in national format, and refuse a fixed line with the same translated
 * message. Each screen is checked with axe at 390 and 1280 px in English; Swedish and Norwegian
 * once each (the profile's message in Swedish, the alarm form in Norwegian starting in Norway).
 * The server's side of the rule is in test/api (registration, alarm receivers, profile). The
 * wizard's 'Step n of N' keeps its N from step to step (it once said '1 of 11', then '2 of 12').
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { no } from '../../shared/i18n/no';
import { sv } from '../../shared/i18n/sv';
import { accountEn } from '../../shared/i18n/features/account/en';
import { accountSv } from '../../shared/i18n/features/account/sv';
import { alarmsEn as a } from '../../shared/i18n/features/alarms/en';
import { alarmsNo } from '../../shared/i18n/features/alarms/no';
import { registrationEn as r } from '../../shared/i18n/features/registration/en';
import { DESKTOP, PHONE, SHOTS_DIR, checkAndShoot, logInAt, openPage, poll, startBrowserApp, stopBrowserApp, type App } from '../support/browser';

let app: App;
let browser: Browser;

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
}, 120_000);

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const TYPED = '070 123 45 67';
const NATIONAL = '070-123 45 67';
const FIXED_LINE = '08-123 45 67';

/** axe at 390 and 1280 px (photographed with SCREENSHOTS=1), then back at desktop width. */
async function checkScreen(page: Page, name: string): Promise<void> {
  await checkAndShoot(page, SHOTS_DIR, `phone-${name}`, { sizes: [PHONE, DESKTOP] });
  await page.setViewportSize(DESKTOP);
}

/** A wizard kept in the tab's storage up to the phone step, as a person leaves it after the address. */
function wizardAtPhoneStep(imei: string, email: string): string {
  return JSON.stringify({
    version: 1,
    step: 'phone',
    values: {
      is_private_account: 1,
      countryCode: 'SE',
      Imei: imei,
      reseller: 'Bilia',
      comment: '',
      companyName: '',
      firstName: 'Ingrid',
      lastName: 'Svensson',
      userName: email,
      personal_org_number: '19811218-9876',
      address: 'Storgatan 1',
      zipCode: '11122',
      city: 'Stockholm',
      country: 'Sweden',
      phone: '',
      countryDialCode: '46',
      paymentType: 1,
      terms: false,
    },
    verified: { imei, email },
  });
}

/** The wizard's 'Step n of N' as [n, N]. */
async function stepOfTotal(page: Page): Promise<[number, number]> {
  const said = page.getByText(new RegExp(`^${r.StepOfTotal.replace('{{current}}', '(\\d+)').replace('{{total}}', '(\\d+)')}:`));
  const [, current = '', total = ''] = /(\d+)\D+(\d+)/.exec((await said.textContent()) ?? '') ?? [];
  return [Number(current), Number(total)];
}

describe('one phone rule', () => {
  it('registration wizard: takes 070 123 45 67, shows it in national format, refuses a fixed line', async () => {
    const { context, page, errors } = await openPage(browser);
    const stored = wizardAtPhoneStep(demoImei(100), 'ingrid.phone@example.com');
    await context.addInitScript((value) => window.sessionStorage.setItem('registration.wizard', value), stored);
    await page.goto(`${app.url}/user/register`);
    const phone = page.getByRole('textbox', { name: r.PhoneLabel });
    await poll(() => phone.isVisible()).toBe(true);

    await phone.fill(FIXED_LINE);
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await checkScreen(page, 'wizard-error');

    const [atPhone, total] = await stepOfTotal(page);
    await phone.fill(TYPED);
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByRole('heading', { level: 2, name: r.PasswordQuestion }).isVisible()).toBe(true);
    expect(await stepOfTotal(page)).toEqual([atPhone + 1, total]);
    await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).fill('Spring-2026!');
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).fill('Spring-2026!');
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).press('Enter');
    await poll(() => page.getByRole('heading', { level: 2, name: r.ReviewQuestion }).isVisible()).toBe(true);
    // The last step: its number is the total said from the first.
    expect(await stepOfTotal(page)).toEqual([total, total]);
    expect(await page.locator('dl').textContent()).toContain(NATIONAL);

    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('alarm receivers and profile: the same number, the same message, in en, sv and no', async () => {
    const { context, page, errors } = await openPage(browser);
    // Alarm receivers: a live check in the form, then the list in national format.
    await logInAt(page, app.url, '/administration/configure-alarm-receiver', demoUsers.admin.username, DEMO_PASSWORD);
    await page.getByRole('button', { name: a.AlarmNewReceiver }).click();
    await page.getByRole('dialog', { name: a.AlarmAddTitle }).getByRole('button', { name: a.AlarmAddNewReceiver }).click();
    const form = page.getByRole('dialog', { name: a.AlarmFormNewTitle });
    await poll(() => form.isVisible()).toBe(true);
    expect(await form.getByRole('combobox', { name: a.AlarmFormCountry }).inputValue()).toBe('Sweden (+46)');
    await form.getByRole('textbox', { name: a.AlarmFormName }).fill('Phone Tour');
    const mobile = form.getByRole('textbox', { name: a.AlarmFormMobile });
    await mobile.fill(FIXED_LINE);
    await poll(() => form.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await checkScreen(page, 'alarm-error');
    await mobile.fill(TYPED);
    await form.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByRole('cell', { name: NATIONAL }).isVisible()).toBe(true);

    // Profile: refused, then saved and shown back in national format.
    await page.getByRole('button', { name: en.MyProfile }).click();
    const profile = page.getByRole('dialog', { name: en.MyProfile });
    const phone = profile.getByRole('textbox', { name: accountEn.PhoneNumber });
    await poll(() => phone.isVisible()).toBe(true);
    expect(await profile.getByRole('combobox', { name: accountEn.PhoneCountry }).inputValue()).toBe('SE');
    await phone.fill(FIXED_LINE);
    await profile.getByRole('button', { name: en.Save }).click();
    await poll(() => profile.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await checkScreen(page, 'profile-error');
    await phone.fill(TYPED);
    await profile.getByRole('button', { name: en.Save }).click();
    await poll(() => profile.count()).toBe(0);
    await page.getByRole('button', { name: en.MyProfile }).click();
    await poll(() => profile.getByRole('textbox', { name: accountEn.PhoneNumber }).inputValue()).toBe(NATIONAL);
    await page.keyboard.press('Escape');
    await poll(() => profile.count()).toBe(0);

    // Swedish: the profile refuses with the Swedish text.
    await page.getByLabel(en.Language, { exact: true }).selectOption('sv');
    await page.getByRole('button', { name: sv.MyProfile }).click();
    const profileSv = page.getByRole('dialog', { name: sv.MyProfile });
    await poll(() => profileSv.getByRole('textbox', { name: accountSv.PhoneNumber }).isVisible()).toBe(true);
    await profileSv.getByRole('textbox', { name: accountSv.PhoneNumber }).fill(FIXED_LINE);
    await profileSv.getByRole('button', { name: sv.Save }).click();
    await poll(() => profileSv.getByText(sv.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => profileSv.count()).toBe(0);

    // Norwegian: a new alarm receiver starts in Norway and refuses with the Norwegian text.
    await page.getByLabel(sv.Language, { exact: true }).selectOption('no');
    await page.getByRole('button', { name: alarmsNo.AlarmNewReceiver }).click();
    await page.getByRole('dialog', { name: alarmsNo.AlarmAddTitle }).getByRole('button', { name: alarmsNo.AlarmAddNewReceiver }).click();
    const formNo = page.getByRole('dialog', { name: alarmsNo.AlarmFormNewTitle });
    await poll(() => formNo.isVisible()).toBe(true);
    expect(await formNo.getByRole('combobox', { name: alarmsNo.AlarmFormCountry }).inputValue()).toBe('Norge (+47)');
    await formNo.getByRole('textbox', { name: alarmsNo.AlarmFormMobile }).fill(TYPED);
    await poll(() => formNo.getByText(no.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByLabel(no.Language, { exact: true }).selectOption('en');

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
