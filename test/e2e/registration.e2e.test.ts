/**
 * Registration in real Chromium against the embedded runtime: the new-design wizard as a private
 * user in Sweden (server checks, back rule, dot bar, Enter, storage, payment and terms, the notice
 * on the login page and a first login), the classic form as a company, axe on every step, and
 * screenshots at 390 and 1280 px in test-results/.
 */
import { join } from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoImei } from '../../infra/local/seed';
import { en } from '../../shared/i18n/en';
import { sv } from '../../shared/i18n/sv';
import { registrationEn as r } from '../../shared/i18n/features/registration/en';
import { registrationSv as rSv } from '../../shared/i18n/features/registration/sv';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, openPage as openBrowserPage, poll, startBrowserApp, stopBrowserApp, type App, photograph, SCREENSHOTS } from '../support/browser';

const shots = SHOTS_DIR;
/** A valid Swedish personnummer: 1981-12-18, check digit 6. */
const PERSONNUMMER = '19811218-9876';
const PASSWORD = 'Spring-2026!';

let app: App;
let browser: Browser;

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

const openPage = (viewport = PHONE) => openBrowserPage(browser, viewport);
const seriousViolations = (page: Page) => axeViolations(page, 'serious');

/** The page at 390 and at 1280 px wide, then back to the size it had. */
async function shotBoth(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const size = page.viewportSize() ?? PHONE;
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await photograph(page, join(shots, `registration-${name}-${viewport.width}.png`), { fullPage: true });
  }
  await page.setViewportSize(size);
}

/** Axe has nothing serious to say, and the screenshots are taken. */
async function checkStep(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), name).toEqual([]);
  await shotBoth(page, name);
}

/** A Mantine dialog fades in: axe measures contrast only once it is fully opaque. */
async function dialogShown(dialog: Locator): Promise<void> {
  await poll(() => dialog.isVisible()).toBe(true);
  await poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
}

const stepHeading = (page: Page) => page.getByRole('heading', { level: 2 });

async function expectStep(page: Page, question: string): Promise<void> {
  await poll(() => stepHeading(page).textContent()).toBe(question);
  // Focus moves to the heading of the new step.
  await poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
}

async function next(page: Page, question: string): Promise<void> {
  await page.getByRole('button', { name: r.Next, exact: true }).click();
  await expectStep(page, question);
}

const dot = (page: Page, n: number) => page.getByRole('navigation', { name: r.RegistrationProgress }).getByRole('button', { name: new RegExp(`^Step ${n}:`) });

describe('registration wizard', () => {
  it('registers a private user in Sweden, step by step, and the new user logs in', async () => {
    const { context, page, errors } = await openPage(PHONE);
    // The page's clock, to let the dot bar's notice time out without waiting for it.
    await context.clock.install();
    await page.goto(`${app.url}/user/register`);

    // Welcome: Company or Private user, and a way back to the login page.
    await poll(() => stepHeading(page).textContent()).toBe(r.WelcomeHeading.replace('{{brand}}', 'TrackPortal'));
    expect(await page.getByRole('link', { name: r.LogInInstead }).getAttribute('href')).toBe('/');
    // Until the customer type is chosen the number of steps is not known, and not said.
    expect(await page.getByText(`${r.StepNumber.replace('{{current}}', '1')}: ${r.StepWelcome}`).isVisible()).toBe(true);
    await checkStep(page, '01-welcome');
    await page.getByRole('button', { name: new RegExp(r.CustomerPrivate) }).click();

    // Country: Sweden (+46) by default.
    await expectStep(page, r.CountryQuestion);
    expect(await page.getByRole('radio', { name: 'Sweden (+46)' }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Norway (+47)' }).isChecked()).toBe(false);
    expect(await page.getByRole('radio', { name: 'United Kingdom (+44)' }).isVisible()).toBe(true);
    await checkStep(page, '02-country');
    await next(page, r.ImeiQuestion);

    // IMEI: checked in the browser (format, Luhn), then on the server (inventory, not registered).
    const imei = page.getByRole('textbox', { name: r.ImeiLabel });
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.ImeiNumberError).isVisible()).toBe(true);
    expect(await imei.getAttribute('aria-invalid')).toBe('true');
    const free = demoImei(100);
    await imei.fill(free.slice(0, 14) + String((Number(free[14]) + 1) % 10));
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.InvalidImei).isVisible()).toBe(true);
    await imei.fill(demoImei(0));
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.ImeiAlreadyRegistered).isVisible()).toBe(true);
    await checkStep(page, '03-imei-error');
    await imei.fill(demoImei(100));
    await next(page, r.ResellerQuestion);

    // Reseller, with a remaining-characters counter; Enter moves on and never submits.
    const reseller = page.getByRole('textbox', { name: r.ResellerLabel });
    expect(await page.getByText(r.CharactersLeft.replace('{{count}}', '255')).isVisible()).toBe(true);
    await reseller.fill('Biltillbehör AB');
    expect(await page.getByText(r.CharactersLeft.replace('{{count}}', '240')).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: r.CommentLabel }).fill('Bought at the spring fair');
    await checkStep(page, '04-reseller');
    await reseller.press('Enter');
    await expectStep(page, r.NameQuestion);

    // Back rule: a private user goes back from the name to the reseller.
    await page.getByRole('button', { name: r.Back }).click();
    await expectStep(page, r.ResellerQuestion);
    expect(await reseller.inputValue()).toBe('Biltillbehör AB');
    await next(page, r.NameQuestion);

    // The dot bar: forward only over filled-in steps, back always.
    const dots = page.getByRole('navigation', { name: r.RegistrationProgress });
    expect(await dots.getByRole('button', { name: /^Step 5:/ }).getAttribute('aria-current')).toBe('step');
    expect(await dot(page, 8).getAttribute('aria-disabled')).toBe('true');
    // A closed dot is still reachable by keyboard, and says why it does not open.
    await dot(page, 8).focus();
    await page.keyboard.press('Enter');
    await poll(() => page.getByText(r.WizardFillStepsFirst).isVisible()).toBe(true);
    expect(await stepHeading(page).textContent()).toBe(r.NameQuestion);
    await dot(page, 3).click();
    await expectStep(page, r.ImeiQuestion);
    expect(await dot(page, 5).getAttribute('aria-disabled')).toBeNull();
    await dot(page, 5).click();
    await expectStep(page, r.NameQuestion);
    // The notice goes after 5 seconds (spec section 9).
    await page.clock.fastForward(5_000);
    await poll(() => page.getByText(r.WizardFillStepsFirst).count()).toBe(0);

    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(en.SpecifyFirstName).isVisible()).toBe(true);
    expect(await page.getByText(en.SpecifyLastName).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: r.FirstNameLabel }).fill('Ingrid');
    await page.getByRole('textbox', { name: r.LastNameLabel }).fill('Svensson');
    // First and last name share 50 characters.
    expect(await page.getByText(r.CharactersLeft.replace('{{count}}', '36')).count()).toBe(2);
    await checkStep(page, '05-name');
    await next(page, r.EmailQuestion);

    // E-mail: format in the browser, uniqueness on the server.
    const email = page.getByRole('textbox', { name: r.EmailLabel });
    await email.fill('not-an-address');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(en.EnterValidEmail).isVisible()).toBe(true);
    await email.fill('admin@demo.example');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.EmailAlreadyInUse).isVisible()).toBe(true);
    await checkStep(page, '06-email-error');
    await email.fill('Ingrid.Svensson@Example.com');
    await next(page, r.PersonalNumberQuestion);

    // Personal number: private users in Sweden only.
    const pin = page.getByRole('textbox', { name: r.PersonalNumberLabel });
    await pin.fill('19811218-9877');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.InvalidPersonalNum).isVisible()).toBe(true);
    await pin.fill('1981121');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.InvalidPersonalNumLength).isVisible()).toBe(true);
    await pin.fill(PERSONNUMMER);
    await checkStep(page, '07-personal-number');
    await next(page, r.AddressQuestion);

    // Address: the country is filled in from the country step.
    expect(await page.getByRole('textbox', { name: r.AddressCountryLabel }).inputValue()).toBe('Sweden');
    await page.getByRole('textbox', { name: r.StreetLabel }).fill('Storgatan 1');
    await page.getByRole('textbox', { name: r.PostalCodeLabel }).fill('11122');
    await page.getByRole('textbox', { name: r.CityLabel }).fill('Stockholm');
    await checkStep(page, '08-address');
    // Back rule: from the address a private user in Sweden goes back to the personal number.
    await page.getByRole('button', { name: r.Back }).click();
    await expectStep(page, r.PersonalNumberQuestion);
    await next(page, r.AddressQuestion);
    await next(page, r.PhoneQuestion);

    // Phone: the dial code is not editable; the number must be a valid mobile number of that country.
    const dial = page.getByRole('textbox', { name: r.DialCodeLabel });
    expect(await dial.inputValue()).toBe('+46');
    expect(await dial.getAttribute('readonly')).not.toBeNull();
    const phone = page.getByRole('textbox', { name: r.PhoneLabel });
    await phone.fill('08-123 45 67');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await phone.fill('0701234567');
    await checkStep(page, '09-phone');
    await next(page, r.PasswordQuestion);

    // Password with confirmation and show/hide; never kept in storage.
    const password = page.getByRole('textbox', { name: r.PasswordLabel, exact: true });
    const confirmation = page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true });
    await password.fill('weak');
    await confirmation.fill('other');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(en.PasswordMustInclude).isVisible()).toBe(true);
    await password.fill(PASSWORD);
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(en.PasswordNotMatch).isVisible()).toBe(true);
    await confirmation.fill(PASSWORD);
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: en.ShowPassword }).first().click();
    expect(await password.getAttribute('type')).toBe('text');
    await checkStep(page, '10-password');
    const stored = (await page.evaluate(() => window.sessionStorage.getItem('registration.wizard'))) ?? '';
    expect(stored).toContain('ingrid.svensson@example.com');
    expect(stored).not.toContain(PASSWORD);

    // A reload keeps everything but the password, and says so.
    await page.reload();
    await poll(() => stepHeading(page).textContent()).toBe(r.PasswordQuestion);
    expect(await page.getByText(r.WizardRestored).isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).inputValue()).toBe('');
    await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).fill(PASSWORD);
    // Enter on the last field moves to the review.
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).press('Enter');
    await expectStep(page, r.ReviewQuestion);

    // Review: a summary, payment methods (private user on brand 0) and the terms with their link.
    const summary = page.locator('dl');
    for (const text of ['Biltillbehör AB', 'Ingrid Svensson', 'ingrid.svensson@example.com', PERSONNUMMER, 'Storgatan 1', '070-123 45 67', demoImei(100)]) {
      expect(await summary.textContent(), text).toContain(text);
    }
    await poll(() => page.getByRole('radio', { name: r.PaymentTypeInvoice }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: r.PaymentTypeCard }).check();
    expect(await page.getByRole('link', { name: r.ReadTerms }).getAttribute('href')).toBe('https://www.trackportal.example/en/terms');
    // Enter on the review step never submits: a submit would show the terms error, as Register does below.
    await page.getByRole('checkbox', { name: r.TermsCheckbox }).focus();
    await page.keyboard.press('Enter');
    // Two frames: what a submit renders is on the page by then.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await page.getByText(r['AcceptTerms&Conditions']).count()).toBe(0);
    expect(await stepHeading(page).textContent()).toBe(r.ReviewQuestion);
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await poll(() => page.getByText(r['AcceptTerms&Conditions']).isVisible()).toBe(true);
    await checkStep(page, '11-review');

    // Swedish follows at once, texts and terms link included.
    await page.getByLabel(en.Language).selectOption('sv');
    await poll(() => stepHeading(page).textContent()).toBe(rSv.ReviewQuestion);
    expect(await page.getByRole('link', { name: rSv.ReadTerms }).getAttribute('href')).toBe('https://www.trackportal.example/sv/villkor');
    await page.getByLabel(sv.Language).selectOption('en');
    await poll(() => stepHeading(page).textContent()).toBe(r.ReviewQuestion);

    await page.getByRole('checkbox', { name: r.TermsCheckbox }).check();
    await page.getByRole('button', { name: r.RegisterButton }).click();

    // Success: the login page with the registered notice; the stored wizard is gone.
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByRole('status').filter({ hasText: en.YouCanNowLogin }).isVisible()).toBe(true);
    expect(await page.evaluate(() => window.sessionStorage.getItem('registration.wizard'))).toBeNull();
    await shotBoth(page, '12-registered');

    // The new account logs in with its e-mail address as username.
    await page.getByRole('textbox', { name: en.UsernameOrEmail }).fill('ingrid.svensson@example.com');
    await page.getByRole('textbox', { name: en.Password, exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: en.Login, exact: true }).click();
    await page.waitForURL(`${app.url}/user/realtime-tracking`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks a company for its name and organisation number and goes back by the company rules', async () => {
    const { context, page } = await openPage(DESKTOP);
    await page.goto(`${app.url}/user/register?subsite=3`);
    await page.getByRole('button', { name: new RegExp(r.CustomerCompany) }).click();
    await expectStep(page, r.CountryQuestion);
    await page.getByRole('radio', { name: 'Norway (+47)' }).check();
    await next(page, r.ImeiQuestion);
    await page.getByRole('textbox', { name: r.ImeiLabel }).fill(demoImei(102));
    await next(page, r.ResellerQuestion);
    await page.getByRole('textbox', { name: r.ResellerLabel }).fill('Fjord Sikkerhet AS');
    // Brand 3 is not the main theme; the wizard still offers the optional comment.
    expect(await page.getByRole('textbox', { name: r.CommentLabel }).isVisible()).toBe(true);
    await next(page, r.CompanyNameQuestion);
    await page.getByRole('textbox', { name: r.CompanyNameLabel }).fill('Fjord Transport AS');
    await checkStep(page, 'company-03-company-name');
    await next(page, r.NameQuestion);
    await page.getByRole('button', { name: r.Back }).click();
    await expectStep(page, r.CompanyNameQuestion);
    await next(page, r.NameQuestion);
    await page.getByRole('textbox', { name: r.FirstNameLabel }).fill('Ola');
    await page.getByRole('textbox', { name: r.LastNameLabel }).fill('Nordmann');
    await next(page, r.EmailQuestion);
    await page.getByRole('textbox', { name: r.EmailLabel }).fill('ola@fjord.example');
    await next(page, r.OrgNumberQuestion);
    await page.getByRole('textbox', { name: r.OrgNumberLabel }).fill('987 654 321');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.OrgNumberDigitsAndHyphens).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: r.OrgNumberLabel }).fill('987-654-321');
    await checkStep(page, 'company-04-org-number');
    await next(page, r.AddressQuestion);
    expect(await page.getByRole('textbox', { name: r.AddressCountryLabel }).inputValue()).toBe('Norway');
    await page.getByRole('button', { name: r.Back }).click();
    await expectStep(page, r.OrgNumberQuestion);
    await next(page, r.AddressQuestion);
    await page.getByRole('textbox', { name: r.StreetLabel }).fill('Bryggen 2');
    await page.getByRole('textbox', { name: r.PostalCodeLabel }).fill('5003');
    await page.getByRole('textbox', { name: r.CityLabel }).fill('Bergen');
    await next(page, r.PhoneQuestion);
    expect(await page.getByRole('textbox', { name: r.DialCodeLabel }).inputValue()).toBe('+47');
    await page.getByRole('textbox', { name: r.PhoneLabel }).fill('912 34 567');
    await next(page, r.PasswordQuestion);
    await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).fill(PASSWORD);
    await next(page, r.ReviewQuestion);
    // No payment choice for a company; no terms checkbox outside brand 0 (pre-accepted).
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.locator('dl').textContent()).toContain('987-654-321');
    await checkStep(page, 'company-05-review');
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByText(en.YouCanNowLogin).isVisible()).toBe(true);
    await context.close();
  });
});

describe('registration wizard, private user outside Sweden on another brand', () => {
  it('skips the personal number, offers no payment choice and confirms payment by invoice in a dialog', async () => {
    const { context, page, errors } = await openPage(PHONE);
    await page.goto(`${app.url}/user/register?subsite=5`);
    await page.getByRole('button', { name: new RegExp(r.CustomerPrivate) }).click();
    await expectStep(page, r.CountryQuestion);
    await page.getByRole('radio', { name: 'United Kingdom (+44)' }).check();
    await next(page, r.ImeiQuestion);
    await page.getByRole('textbox', { name: r.ImeiLabel }).fill(demoImei(104));
    await next(page, r.ResellerQuestion);
    await page.getByRole('textbox', { name: r.ResellerLabel }).fill('Harbour Electronics Ltd');
    await next(page, r.NameQuestion);
    await page.getByRole('textbox', { name: r.FirstNameLabel }).fill('Amelia');
    await page.getByRole('textbox', { name: r.LastNameLabel }).fill('Hughes');
    await next(page, r.EmailQuestion);
    await page.getByRole('textbox', { name: r.EmailLabel }).fill('amelia@hughes.example');
    // No personal number outside Sweden: straight to the address, and back to the e-mail.
    await next(page, r.AddressQuestion);
    await page.getByRole('button', { name: r.Back }).click();
    await expectStep(page, r.EmailQuestion);
    await next(page, r.AddressQuestion);
    expect(await page.getByRole('textbox', { name: r.AddressCountryLabel }).inputValue()).toBe('United Kingdom');
    await page.getByRole('textbox', { name: r.StreetLabel }).fill('1 Quay Street');
    // A UK postcode, typed with letters: the field is not a numeric one here.
    const postcode = page.getByRole('textbox', { name: r.PostalCodeLabel });
    expect(await postcode.getAttribute('inputmode')).toBe('text');
    await postcode.fill('12345');
    await page.getByRole('textbox', { name: r.CityLabel }).fill('Bristol');
    await page.getByRole('button', { name: r.Next, exact: true }).click();
    await poll(() => page.getByText(r.InvalidUkPostcode).isVisible()).toBe(true);
    await postcode.fill('bs1 4dj');
    await next(page, r.PhoneQuestion);
    expect(await page.getByRole('textbox', { name: r.DialCodeLabel }).inputValue()).toBe('+44');
    await page.getByRole('textbox', { name: r.PhoneLabel }).fill('07911 123456');
    await next(page, r.PasswordQuestion);
    await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).fill(PASSWORD);
    await next(page, r.ReviewQuestion);

    // Brand 5: no payment methods, no terms checkbox; Register asks to confirm payment by invoice.
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await page.getByRole('button', { name: r.RegisterButton }).click();
    const dialog = page.getByRole('dialog', { name: r.InvoiceDialogTitle });
    await dialogShown(dialog);
    expect(await dialog.textContent()).toContain('amelia@hughes.example');
    await checkStep(page, 'private-gb-invoice-dialog');
    await dialog.getByRole('button', { name: en.Cancel }).click();
    await poll(() => dialog.count()).toBe(0);
    expect(await stepHeading(page).textContent()).toBe(r.ReviewQuestion);
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await page.getByRole('dialog', { name: r.InvoiceDialogTitle }).getByRole('button', { name: r.InvoiceDialogConfirm }).click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByText(en.YouCanNowLogin).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('classic registration form', () => {
  it('registers a company through the classic form, with every field error beside its field', async () => {
    const { context, page, errors } = await openPage(DESKTOP);
    await page.goto(`${app.url}/user/register?design=classic`);
    await poll(() => page.getByRole('group', { name: r.ClassicUnitSection }).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: r.ClassicLoginSection }).isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: r.ClassicCustomerSection }).isVisible()).toBe(true);
    // Brand 0: the comment field and the terms checkbox are there.
    expect(await page.getByRole('textbox', { name: r.CommentLabel }).isVisible()).toBe(true);
    await checkStep(page, 'classic-01-empty');

    // An empty submit: the classic keys beside their fields; focus on the first.
    await page.getByRole('button', { name: r.RegisterButton }).click();
    for (const key of [r.SpecifyValidUnitImei, r.SpecifyReseller, r.SpecifyFullName, r.SpecifyValidEmail, en.SpecifyNewPassword, r.SpecifyCompanyPhone, r.SpecifyContactPerson, r.SpecifyAddress, r.SpecifyZipcode, r.SpecifyCity, r.SpecifyCountry, r.MustAcceptTerms]) {
      await expect.poll(() => page.getByText(key, { exact: true }).first().isVisible(), { timeout: 5_000, message: key }).toBe(true);
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('Imei');
    await checkStep(page, 'classic-02-errors');

    await page.getByRole('textbox', { name: r.ImeiLabel }).fill(demoImei(0));
    await page.getByRole('textbox', { name: r.ResellerLabel }).fill('Nordic Trackers AB');
    await page.getByRole('textbox', { name: r.CommentLabel }).fill('Three more units next month');
    await page.getByRole('textbox', { name: r.FullNameLabel, exact: true }).fill('Karin Berg');
    await page.getByRole('textbox', { name: r.UsernameEmailLabel }).fill('karin@bygg.example');
    await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.CompanyNameLabel }).fill('Berg Bygg AB');
    await page.getByRole('textbox', { name: r.CompanyPhoneLabel }).fill('08 1');
    await page.getByRole('textbox', { name: r.ContactPersonLabel }).fill('Karin Berg');
    await page.getByRole('textbox', { name: r.AddressLabel, exact: true }).fill('Industrivägen 4');
    await page.getByRole('textbox', { name: r.ZipCodeLabel }).fill('41250');
    await page.getByRole('textbox', { name: r.CityLabel }).fill('Göteborg');
    await page.getByRole('textbox', { name: r.AddressCountryLabel }).fill('Sverige');
    // Phone with a searchable country picker: Sweden, Norway and the United Kingdom first.
    const picker = page.getByRole('combobox', { name: r.PhoneCountryLabel });
    expect(await picker.inputValue()).toBe('Sweden (+46)');
    await picker.click();
    const options = page.getByRole('listbox').getByRole('option');
    await poll(() => options.count()).toBeGreaterThan(200);
    expect(await options.nth(0).textContent()).toBe('Sweden (+46)');
    expect(await options.nth(1).textContent()).toBe('Norway (+47)');
    expect(await options.nth(2).textContent()).toBe('United Kingdom (+44)');
    await picker.fill('Fin');
    await page.getByRole('option', { name: 'Finland (+358)' }).click();
    expect(await picker.inputValue()).toBe('Finland (+358)');
    await picker.click();
    await picker.fill('Swe');
    await page.getByRole('option', { name: 'Sweden (+46)' }).click();
    await page.getByRole('checkbox', { name: r.TermsCheckbox }).check();
    // The browser's phone rules: the company phone must be a number of the chosen country...
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await poll(() => page.getByText(en.EnterValidPhoneNumber).isVisible()).toBe(true);
    await page.getByRole('textbox', { name: r.CompanyPhoneLabel }).fill('08-123 456 78');
    // ...the phone is required (checked once the other fields are valid)...
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await poll(() => page.getByText(r.SpecifyTelephone).isVisible()).toBe(true);
    // ...and the phone a mobile number (typed as one knows it, with its 0).
    const telephone = page.getByRole('textbox', { name: r.TelephoneLabel });
    await telephone.fill('08-123 45 67');
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await poll(() => page.getByText(en.MakeSurePhoneNunIsCorrect).isVisible()).toBe(true);
    await telephone.fill('0701234567');

    // The server refuses a registered IMEI: its message in a dialog, the key beside the field.
    await page.getByRole('button', { name: r.RegisterButton }).click();
    const dialog = page.getByRole('dialog', { name: r.RegistrationFailedTitle });
    await dialogShown(dialog);
    expect(await dialog.textContent()).toContain(r.ImeiAlreadyRegistered);
    await checkStep(page, 'classic-03-server-error');
    await dialog.getByRole('button', { name: en.CloseDialog }).last().click();
    await poll(() => dialog.count()).toBe(0);
    expect(await page.getByText(r.ImeiAlreadyRegistered).isVisible()).toBe(true);

    await page.getByRole('textbox', { name: r.ImeiLabel }).fill(demoImei(101));
    await page.getByRole('button', { name: r.RegisterButton }).click();
    await page.waitForURL(`${app.url}/`);
    await poll(() => page.getByText(en.YouCanNowLogin).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('hides the comment and the terms outside brand 0 and shows network errors translated', async () => {
    const { context, page } = await openPage(PHONE);
    await page.route('**/api/v1/register-account', (route) => route.abort('internetdisconnected'));
    await page.goto(`${app.url}/user/register?design=classic&subsite=2`);
    await poll(() => page.getByRole('group', { name: r.ClassicUnitSection }).isVisible()).toBe(true);
    expect(await page.getByRole('textbox', { name: r.CommentLabel }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await page.getByRole('textbox', { name: r.ImeiLabel }).fill(demoImei(103));
    await page.getByRole('textbox', { name: r.ResellerLabel }).fill('Nordic Trackers AB');
    await page.getByRole('textbox', { name: r.FullNameLabel, exact: true }).fill('Per Holm');
    await page.getByRole('textbox', { name: r.UsernameEmailLabel }).fill('per@holm.example');
    await page.getByRole('textbox', { name: r.PasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.ConfirmPasswordLabel, exact: true }).fill(PASSWORD);
    await page.getByRole('textbox', { name: r.CompanyPhoneLabel }).fill('08-123 456 78');
    await page.getByRole('textbox', { name: r.ContactPersonLabel }).fill('Per Holm');
    await page.getByRole('textbox', { name: r.AddressLabel, exact: true }).fill('Hamngatan 9');
    await page.getByRole('textbox', { name: r.ZipCodeLabel }).fill('21120');
    await page.getByRole('textbox', { name: r.CityLabel }).fill('Malmö');
    await page.getByRole('textbox', { name: r.AddressCountryLabel }).fill('Sverige');
    await page.getByRole('textbox', { name: r.TelephoneLabel }).fill('701234567');
    await page.getByRole('button', { name: r.RegisterButton }).click();
    const dialog = page.getByRole('dialog', { name: r.RegistrationFailedTitle });
    await dialogShown(dialog);
    expect(await dialog.textContent()).toContain(en.NetworkError);
    await checkStep(page, 'classic-04-brand2-network-error');
    await context.close();
  });
});
