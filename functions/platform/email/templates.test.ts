import { beforeAll, describe, expect, it } from 'vitest';
import { brandById } from '../../../shared/brands';
import { languages } from '../../../shared/schemas/common';
import { useLocalTables } from '../../../test/support/local-tables';
import { readOutbox } from '../adapters/embedded/outbox';
import { escapeHtml, safeUrl } from './layout';
import { renderTemplate, sendTemplatedEmail } from './templates';

const APP = 'https://portal.example.se';
const welcomeVars = { firstName: 'Ada', username: 'ada@example.se', loginUrl: `${APP}/` };

describe('e-mail templates', () => {
  it('renders each template in en, sv and no, with subject, HTML and text in that language', () => {
    const expected = {
      en: { twoFactor: 'Your login code for TrackPortal', reset: 'Reset your password for TrackPortal', welcome: 'Welcome to TrackPortal' },
      sv: { twoFactor: 'Din inloggningskod för TrackPortal', reset: 'Återställ ditt lösenord för TrackPortal', welcome: 'Välkommen till TrackPortal' },
      no: { twoFactor: 'Innloggingskoden din for TrackPortal', reset: 'Tilbakestill passordet ditt for TrackPortal', welcome: 'Velkommen til TrackPortal' },
    } as const;
    const validity = { en: 'valid for 10 minutes', sv: 'gäller i 10 minuter', no: 'gyldig i 10 minutter' } as const;
    const linkValidity = { en: 'valid for 60 minutes', sv: 'gäller i 60 minuter', no: 'gyldig i 60 minutter' } as const;
    for (const lang of languages) {
      const code = renderTemplate('twoFactorCode', lang, 0, { code: '042917' }, APP);
      expect(code.subject).toBe(expected[lang].twoFactor);
      expect(code.text).toContain('042917');
      expect(code.html).toContain('042917');
      expect(code.text).toContain(validity[lang]);
      expect(code.html).toContain(`<html lang="${lang === 'no' ? 'nb' : lang}">`);

      const reset = renderTemplate('passwordReset', lang, 0, { link: `${APP}/user/reset-password?_c=abc` }, APP);
      expect(reset.subject).toBe(expected[lang].reset);
      expect(reset.text).toContain(`${APP}/user/reset-password?_c=abc`);
      expect(reset.html).toContain(`href="${APP}/user/reset-password?_c=abc"`);
      expect(reset.text).toContain(linkValidity[lang]);

      const welcome = renderTemplate('welcome', lang, 0, welcomeVars, APP);
      expect(welcome.subject).toBe(expected[lang].welcome);
      expect(welcome.text).toContain('ada@example.se');
      expect(welcome.html).toContain(`href="${APP}/"`);
    }
  });

  it('brands the layout: title, primary colour, logo from APP_URL, footer', () => {
    for (const id of [0, 3, 7]) {
      const brand = brandById(id);
      const mail = renderTemplate('welcome', 'en', id, welcomeVars, APP);
      expect(mail.subject).toBe(`Welcome to ${brand.title}`);
      expect(mail.html).toContain(`src="${APP}${brand.logo}"`);
      expect(mail.html).toContain(`alt="${brand.title}"`);
      expect(mail.html).toContain(`border-top:6px solid ${brand.primary}`);
      expect(mail.html).toContain(`background:${brand.primary}`);
      expect(mail.text).toContain(`This e-mail was sent by ${brand.title}.`);
    }
    // An unknown brand gets brand 0, as everywhere else.
    expect(renderTemplate('welcome', 'en', 42, welcomeVars, APP).subject).toBe('Welcome to TrackPortal');
  });

  it('escapes every interpolated value in the HTML and keeps the text version literal', () => {
    const mail = renderTemplate('welcome', 'sv', 0, { firstName: '<script>alert("x")</script>', username: `o'neil&co`, loginUrl: `${APP}/?a=1&b="2"` }, APP);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Välkommen, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;!');
    expect(mail.html).toContain('o&#39;neil&amp;co');
    expect(mail.html).toContain('href="https://portal.example.se/?a=1&amp;b=%222%22"');
    expect(mail.text).toContain('Välkommen, <script>alert("x")</script>!');
    expect(mail.text).toContain(`o'neil&co`);
  });

  it('does not let a value pull in another placeholder', () => {
    const mail = renderTemplate('welcome', 'en', 0, { ...welcomeVars, firstName: '{{brand}}' }, APP);
    expect(mail.text).toContain('Welcome, {{brand}}!');
  });

  it('refuses links that are not http(s) and templates without their values', () => {
    expect(() => renderTemplate('welcome', 'en', 0, { ...welcomeVars, loginUrl: 'javascript:alert(1)' }, APP)).toThrow(/javascript/);
    expect(() => renderTemplate('passwordReset', 'en', 0, {}, APP)).toThrow(/needs link/);
    expect(() => renderTemplate('welcome', 'en', 0, { firstName: 'A', username: '', loginUrl: APP }, APP)).toThrow(/needs username/);
  });

  it('escapeHtml and safeUrl', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(safeUrl('https://a.example/x?y=1')).toBe('https://a.example/x?y=1');
    expect(() => safeUrl('data:text/html,hi')).toThrow();
    expect(() => safeUrl('not a url')).toThrow();
  });
});

describe('sendTemplatedEmail', () => {
  beforeAll(async () => {
    await useLocalTables();
  });

  it('sends through the Mailer port (the outbox here), to the recipient, with HTML and text', async () => {
    await sendTemplatedEmail('twoFactorCode', 'Kim@Example.se', 'no', 2, { code: '123456' });
    const [sent] = await readOutbox({ to: 'kim@example.se', kind: 'email', limit: 5 });
    expect(sent).toMatchObject({ to: 'kim@example.se', subject: 'Innloggingskoden din for AssetScout' });
    expect(sent?.text).toContain('123456');
    expect(sent?.html).toContain('123456');
    // APP_URL of the environment (test/support/local-tables.ts) places the logo.
    expect(sent?.html).toContain('src="http://localhost:3000/logos/brand-2.svg"');
  });
});
