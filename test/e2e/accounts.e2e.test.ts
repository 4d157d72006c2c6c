/**
 * Accounts in real Chromium against the embedded runtime: the profile and its two-factor switch,
 * a two-factor login with the code from the outbox, a trusted browser, the code screen through a
 * reload, the failed-login count and block, password reset by e-mailed link, the account deletion
 * and alert opt-out pages, and the announcement in the chosen language. Each screen is checked
 * with axe and photographed at 390 and 1280 px into test-results/ (gitignored).
 *
 * The tests run in order and build on each other (2FA switched on in the first is used by the next).
 */
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { brandById } from '../../shared/brands';
import { en } from '../../shared/i18n/en';
import { accountEn } from '../../shared/i18n/features/account/en';
import { sv } from '../../shared/i18n/sv';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, openPage as openBrowserPage, poll, startBrowserApp, stopBrowserApp, type App, photograph, settle } from '../support/browser';

const shotsDir = SHOTS_DIR;
const NEW_PASSWORD = 'Fresh-start9!';

let app: App;
let browser: Browser;

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const openPage = (viewport = DESKTOP) => openBrowserPage(browser, viewport);
const violations = (page: Page) => axeViolations(page);

/** axe at both widths, and a full-page screenshot at each; the viewport is restored afterwards. */
async function checkScreen(page: Page, name: string): Promise<void> {
  const original = page.viewportSize() ?? DESKTOP;
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await settle(page);
    expect(await violations(page), `${name} at ${size.width} px`).toEqual([]);
    await photograph(page, join(shotsDir, `accounts-${name}-${size.width}.png`), { fullPage: true });
  }
  await page.setViewportSize(original);
}

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

async function outbox(to: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${app.url}/api/dev/outbox?to=${encodeURIComponent(to)}&kind=email`);
  const body = (await response.json()) as { data: OutboxMessage[] };
  return body.data;
}

const isCodeMail = (m: OutboxMessage) => m.subject.startsWith('Your login code');

/** Waits for the count-th login-code e-mail to `to` and returns its 6-digit code. */
async function loginCode(to: string, count: number): Promise<string> {
  await poll(async () => (await outbox(to)).filter(isCodeMail).length).toBe(count);
  const newest = (await outbox(to)).filter(isCodeMail)[0] as OutboxMessage;
  const code = /\b(\d{6})\b/.exec(newest.text)?.[1];
  if (!code) throw new Error(`no code in ${newest.text}`);
  return code;
}

async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(username);
  await page.getByRole('textbox', { name: en.Password, exact: true }).fill(password);
  await page.getByRole('button', { name: en.Login, exact: true }).click();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: en.LogOut }).click();
  await page.waitForURL(`${app.url}/`);
  await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
}

/** The countdown next to Resend, in seconds. */
async function countdownSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer').textContent()) ?? '';
  const match = /(\d\d):(\d\d)/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : 0;
}

const admin = demoUsers.admin;
const user = demoUsers.user;

describe('accounts in the browser', () => {
  it('switches two-factor login on in the profile, and the announcement follows the language', async () => {
    await dynamo().send(new PutCommand({ TableName: tableName('announcements'), Item: { subsiteId: '0', lang: 'en', text: 'New reports are here.' } }));
    await dynamo().send(new PutCommand({ TableName: tableName('announcements'), Item: { subsiteId: '0', lang: 'sv', text: 'Nya rapporter finns här.' } }));

    const { context, page, errors } = await openPage();
    await page.goto(`${app.url}/`);
    await fillLogin(page, admin.username, DEMO_PASSWORD);
    await page.waitForURL(`${app.url}/user/realtime-tracking`);
    await poll(() => page.getByText('New reports are here.').isVisible()).toBe(true);

    // The stored session carries what token renewal needs.
    const stored = await page.evaluate(() => window.localStorage.getItem('user'));
    expect(stored?.startsWith('v1.')).toBe(true);

    await page.getByRole('button', { name: en.MyProfile }).click();
    const dialog = page.getByRole('dialog', { name: en.MyProfile });
    await poll(() => dialog.getByLabel(accountEn.FirstName).inputValue()).toBe(admin.firstName);
    expect(await dialog.getByLabel(accountEn.LastName).inputValue()).toBe(admin.lastName);
    expect(await dialog.getByText(`Username: ${admin.username}`).isVisible()).toBe(true);
    const twoFactor = dialog.getByRole('switch', { name: accountEn.TwoFactorLogin });
    expect(await twoFactor.isChecked()).toBe(false);
    await checkScreen(page, 'profile');

    // A phone number the server cannot read is refused beside the field.
    await dialog.getByLabel(accountEn.PhoneNumber).fill('12');
    await dialog.getByRole('button', { name: en.Save }).click();
    await poll(() => dialog.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);

    await dialog.getByLabel(accountEn.PhoneNumber).fill('070-123 45 67');
    await dialog.getByLabel(accountEn.FirstName).fill('Alva Maria');
    await twoFactor.check();
    await dialog.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByText(accountEn.ProfileSaved).isVisible()).toBe(true);
    await poll(() => dialog.count()).toBe(0);
    // The sidebar shows the new name straight away (the stored user was refreshed).
    expect(await page.getByRole('button', { name: 'Change password for Alva Maria Andersson' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: en.MyProfile }).click();
    await poll(() => page.getByRole('dialog').getByLabel(accountEn.PhoneNumber).inputValue()).toBe('070-123 45 67');
    expect(await page.getByRole('dialog').getByRole('switch', { name: accountEn.TwoFactorLogin }).isChecked()).toBe(true);
    // Back as it was, except two-factor login.
    await page.getByRole('dialog').getByLabel(accountEn.FirstName).fill(admin.firstName);
    await page.getByRole('dialog').getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByRole('dialog').count()).toBe(0);

    // The announcement bar reloads in the language the user switches to.
    await page.getByLabel(en.Language).selectOption('sv');
    await poll(() => page.getByText('Nya rapporter finns här.').isVisible()).toBe(true);
    expect(await page.getByText('New reports are here.').count()).toBe(0);
    await page.getByLabel(sv.Language).selectOption('en');
    await poll(() => page.getByText('New reports are here.').isVisible()).toBe(true);

    await logOut(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('logs in with the e-mailed code, trusts the browser, and then logs in without a code', async () => {
    const { context, page, errors } = await openPage(PHONE);
    // The page's clock, to let the resend countdown run out without waiting for it.
    await context.clock.install();
    await page.goto(`${app.url}/`);
    const codesBefore = (await outbox(admin.email)).filter(isCodeMail).length;
    await fillLogin(page, admin.username, DEMO_PASSWORD);

    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.TwoFactorTitle);
    const firstCode = await loginCode(admin.email, codesBefore + 1);
    const codeField = page.getByRole('textbox', { name: en.LoginCode });
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    const verify = page.getByRole('button', { name: en.Verify });
    const resend = page.getByRole('button', { name: en.ResendCode });
    expect(await countdownSeconds(page)).toBeGreaterThan(170);
    expect(await countdownSeconds(page)).toBeLessThanOrEqual(180);
    expect(await resend.isDisabled()).toBe(true);
    expect(await verify.isDisabled()).toBe(true);
    await codeField.fill('12345');
    expect(await verify.isDisabled()).toBe(true);
    await checkScreen(page, 'two-factor');

    // A wrong code: the error under the field, the countdown at 00:00 and Resend open.
    const wrong = firstCode === '000000' ? '111111' : '000000';
    await codeField.fill(wrong);
    expect(await verify.isDisabled()).toBe(false);
    await verify.click();
    await poll(() => page.getByText(en.InvalidCodeTriesLeft.replace('{{count}}', '4')).isVisible()).toBe(true);
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('timer').textContent()).toBe(en.ResendAvailable);
    expect(await resend.isDisabled()).toBe(false);
    await checkScreen(page, 'two-factor-wrong-code');

    // Resend: a new code, and the countdown restarts at 00:10.
    await resend.click();
    await poll(() => page.getByText(en.CodeResent).isVisible()).toBe(true);
    const secondCode = await loginCode(admin.email, codesBefore + 2);
    const left = await countdownSeconds(page);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(10);
    expect(await resend.isDisabled()).toBe(true);
    // Ten seconds later (on the page's clock) Resend opens again.
    await page.clock.fastForward(10_000);
    await poll(() => resend.isDisabled()).toBe(false);

    await codeField.fill(secondCode);
    await page.getByRole('checkbox', { name: en.TrustThisBrowser }).check();
    await verify.click();
    await page.waitForURL(`${app.url}/user/realtime-tracking`);
    expect(await page.evaluate(() => window.localStorage.getItem('session.first-login'))).toMatch(/^v1\./);
    expect(await page.evaluate(() => window.localStorage.getItem('session.temporary'))).toBeNull();
    await logOut(page);

    // The secret is an HttpOnly cookie for the API only, out of reach of the page's scripts.
    const [trustCookie] = (await context.cookies()).filter((c) => c.name === 'trusted_browser');
    expect(trustCookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/v1' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('trusted_browser');

    // Trusted: the next login skips the code, under the username and the e-mail alike.
    await fillLogin(page, admin.email, DEMO_PASSWORD);
    await page.waitForURL(`${app.url}/user/realtime-tracking`);
    expect((await outbox(admin.email)).filter(isCodeMail).length).toBe(codesBefore + 2);

    // Turning two-factor login off asks for the current password.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: en.MyProfile }).click();
    const profile = page.getByRole('dialog', { name: en.MyProfile });
    await profile.getByRole('switch', { name: accountEn.TwoFactorLogin }).uncheck();
    const current = profile.getByRole('textbox', { name: en.CurrentPassword });
    await poll(() => current.isVisible()).toBe(true);
    await profile.getByRole('button', { name: en.Save }).click();
    await poll(() => profile.getByText(en.SpecifyCurrentPassword).isVisible()).toBe(true);
    await current.fill('Wrong-pass1');
    await profile.getByRole('button', { name: en.Save }).click();
    await poll(() => profile.getByText(en.WrongCurrentPassword).isVisible()).toBe(true);
    await checkScreen(page, 'profile-two-factor-off');
    await current.fill(DEMO_PASSWORD);
    await profile.getByRole('button', { name: en.Save }).click();
    await poll(() => profile.count()).toBe(0);
    // And back on, which needs no password.
    await page.getByRole('button', { name: en.MyProfile }).click();
    await profile.getByRole('switch', { name: accountEn.TwoFactorLogin }).check();
    expect(await current.count()).toBe(0);
    await profile.getByRole('button', { name: en.Save }).click();
    await poll(() => profile.count()).toBe(0);
    await logOut(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the code screen and its countdown through a reload, and Cancel forgets the login', async () => {
    const { context, page, errors } = await openPage();
    await context.clock.install();
    await page.goto(`${app.url}/`);
    const codesBefore = (await outbox(admin.email)).filter(isCodeMail).length;
    await fillLogin(page, admin.username, DEMO_PASSWORD);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.TwoFactorTitle);
    await loginCode(admin.email, codesBefore + 1);
    expect(await page.evaluate(() => window.localStorage.getItem('session.temporary'))).toMatch(/^v1\./);

    // Three seconds of the countdown go by (on the page's clock, which the reload keeps).
    await page.clock.fastForward(3000);
    await poll(() => countdownSeconds(page)).toBeLessThanOrEqual(177);
    const beforeReload = await countdownSeconds(page);
    expect(beforeReload).toBeLessThanOrEqual(177);
    await page.reload();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.TwoFactorTitle);
    const afterReload = await countdownSeconds(page);
    expect(afterReload).toBeLessThanOrEqual(beforeReload);
    expect(afterReload).toBeGreaterThan(beforeReload - 10);
    // The reload sent no second code (by the time the page's requests are over).
    await page.waitForLoadState('networkidle');
    expect((await outbox(admin.email)).filter(isCodeMail).length).toBe(codesBefore + 1);

    await page.getByRole('button', { name: en.Cancel }).click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
    expect(await page.evaluate(() => window.localStorage.getItem('session.temporary'))).toBeNull();
    await page.reload();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Log in to TrackPortal');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the failed logins left, and the block', async () => {
    // The count (4, 3, 2, 1, then an hour's block even with the right password) is the login API's
    // rule, test/api/auth-login.test.ts; the page shows what the server answers.
    const { context, page, errors } = await openPage();
    await page.goto(`${app.url}/`);
    const banner = page.getByRole('alert');
    await fillLogin(page, user.username, 'wrong-password-1');
    await poll(() => banner.textContent()).toBe(en.InvalidCredentials.replace('{{count}}', '4'));
    await checkScreen(page, 'login-attempts-left');
    // Four more from the same client, through the API.
    for (let attempt = 2; attempt <= 5; attempt++) {
      const response = await fetch(`${app.url}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: `wrong-password-${attempt}`, subsiteid: 0 }),
      });
      expect(response.status).toBe(attempt < 5 ? 401 : 429);
    }
    // The right password does not help while blocked.
    await fillLogin(page, user.username, DEMO_PASSWORD);
    await poll(() => banner.textContent()).toBe(en.TooManyAttempts);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resets a forgotten password through the e-mailed link and logs in with it', async () => {
    const { context, page, errors } = await openPage(PHONE);
    await page.goto(`${app.url}/`);
    await page.getByRole('link', { name: en.ForgotPassword }).click();
    await page.waitForURL(`${app.url}/user/forgot-password`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.ForgotPasswordTitle);
    const email = page.getByRole('textbox', { name: accountEn.EmailAddress });
    const send = page.getByRole('button', { name: accountEn.SendResetLink });

    await send.click();
    await poll(() => page.getByText(en.GetPasswordResetLink).isVisible()).toBe(true);
    await email.fill('nobody@demo.example');
    await send.click();
    await poll(() => page.getByText(en.EmailDoesNotExist).isVisible()).toBe(true);
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await checkScreen(page, 'forgot-password');

    await email.fill(user.email);
    await send.click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('status').filter({ hasText: en.PasswordResetLink }).isVisible()).toBe(true);
    await checkScreen(page, 'login-reset-link-sent');

    await poll(async () => (await outbox(user.email)).filter((m) => m.subject.startsWith('Reset your password')).length).toBe(1);
    const mail = (await outbox(user.email)).find((m) => m.subject.startsWith('Reset your password')) as OutboxMessage;
    const link = new URL(/https?:\/\/\S+reset-password\?_c=[\w-]+/.exec(mail.text)?.[0] ?? '');
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.ResetPasswordTitle);

    const password = page.getByRole('textbox', { name: en.NewPassword, exact: true });
    const confirmation = page.getByRole('textbox', { name: en.ConfirmNewPassword, exact: true });
    await password.fill('weakpass');
    await confirmation.fill('weakpass');
    await page.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByText(en.PasswordMustInclude).isVisible()).toBe(true);
    await password.fill(NEW_PASSWORD);
    await confirmation.fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByText(en.PasswordNotMatch).isVisible()).toBe(true);
    // Show/hide.
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: en.ShowPassword }).first().click();
    expect(await password.getAttribute('type')).toBe('text');
    await checkScreen(page, 'reset-password');

    await confirmation.fill(NEW_PASSWORD);
    await page.getByRole('button', { name: en.Save }).click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('status').filter({ hasText: en.PasswordChanged }).isVisible()).toBe(true);

    // The link works once.
    await page.goto(`${app.url}${link.pathname}${link.search}`);
    await page.getByRole('textbox', { name: en.NewPassword, exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('textbox', { name: en.ConfirmNewPassword, exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByRole('alert').textContent()).toContain(en.InvalidResetCode);
    expect(await page.getByRole('link', { name: accountEn.RequestNewResetLink }).getAttribute('href')).toBe('/user/forgot-password');
    await checkScreen(page, 'reset-password-used-link');

    // The reset also lifted the block of the previous test.
    await page.goto(`${app.url}/`);
    await fillLogin(page, user.username, NEW_PASSWORD);
    await page.waitForURL(`${app.url}/user/realtime-tracking`);

    // Logged in, the avatar's set-new-password modal: the same rule, then success.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: `Change password for ${user.firstName} ${user.lastName}` }).click();
    const dialog = page.getByRole('dialog', { name: en.SetNewPassword });
    await poll(() => dialog.getByText(en.OtherSessionsEnd).isVisible()).toBe(true);
    await dialog.getByLabel(en.CurrentPassword).fill('Wrong-pass1');
    await dialog.getByLabel(en.NewPassword, { exact: true }).fill('short');
    await dialog.getByLabel(en.ConfirmNewPassword).fill('short');
    await dialog.getByRole('button', { name: en.Save }).click();
    await poll(() => dialog.getByText(en.PasswordMustInclude).isVisible()).toBe(true);
    await checkScreen(page, 'set-password');
    await dialog.getByLabel(en.NewPassword, { exact: true }).fill(`${NEW_PASSWORD}2`);
    await dialog.getByLabel(en.ConfirmNewPassword).fill(`${NEW_PASSWORD}2`);
    await dialog.getByRole('button', { name: en.Save }).click();
    await poll(() => dialog.getByText(en.WrongCurrentPassword).isVisible()).toBe(true);
    await checkScreen(page, 'set-password-wrong-current');
    await dialog.getByLabel(en.CurrentPassword).fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: en.Save }).click();
    await poll(() => page.getByText(en['User updated successfully.']).isVisible()).toBe(true);
    await poll(() => dialog.count()).toBe(0);
    // This browser goes on in its new session: a reload keeps the user logged in.
    await page.reload();
    await poll(() => page.getByRole('button', { name: en.MyProfile }).isVisible()).toBe(true);
    expect(page.url()).toBe(`${app.url}/user/realtime-tracking`);
    await logOut(page);
    await fillLogin(page, user.username, `${NEW_PASSWORD}2`);
    await page.waitForURL(`${app.url}/user/realtime-tracking`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the brand's contact on the account deletion page", async () => {
    const brand = brandById(0);
    const { context, page, errors } = await openPage(PHONE);
    await page.goto(`${app.url}/account/deletion`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.AccountDeletionTitle);
    await poll(() => page.getByRole('link', { name: brand.contactEmail }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: brand.contactEmail }).getAttribute('href')).toBe(`mailto:${brand.contactEmail}`);
    expect(await page.getByRole('link', { name: brand.contactPhone }).getAttribute('href')).toBe(`tel:${brand.contactPhone.replace(/[^\d+]/g, '')}`);
    await checkScreen(page, 'account-deletion');

    // Another brand, another contact.
    const other = brandById(3);
    await page.goto(`${app.url}/account/deletion?subsite=3`);
    await poll(() => page.getByRole('link', { name: other.contactEmail }).isVisible()).toBe(true);
    await page.getByRole('link', { name: en.BackToLogin }).click();
    await page.waitForURL(`${app.url}/`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stops alerts after checking username and password, and says so on the login page', async () => {
    const { context, page, errors } = await openPage(PHONE);
    await page.goto(`${app.url}/user/alert-opt-out`);
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en.AlertOptOutTitle);
    const stop = page.getByRole('button', { name: accountEn.StopAlerts });
    await stop.click();
    await poll(() => page.getByText(en.SpecifyUsername).isVisible()).toBe(true);
    expect(await page.getByText(en.SpecifyPassword).isVisible()).toBe(true);
    await checkScreen(page, 'alert-opt-out');

    await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill(admin.username);
    await page.getByRole('textbox', { name: en.Password, exact: true }).fill('not-the-password');
    await stop.click();
    await poll(() => page.getByRole('alert').textContent()).toBe(en.InvalidCredentials.replace('{{count}}', '4'));

    await page.getByRole('textbox', { name: en.Password, exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('checkbox', { name: accountEn.StopPushToo }).check();
    await stop.click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('status').filter({ hasText: en.AlertOptOutDone }).isVisible()).toBe(true);
    await checkScreen(page, 'login-alerts-stopped');
    expect(errors).toEqual([]);
    await context.close();
  });
});
