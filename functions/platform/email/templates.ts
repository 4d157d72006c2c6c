/**
 * The e-mails the portal sends, in the recipient's language and their brand's layout. Texts come
 * from shared/i18n/features/email; values are interpolated as plain text and escaped by the layout.
 */
import { brandById } from '../../../shared/brands';
import { translateKey } from '../../../shared/i18n/index';
import { RESET_LINK_SECONDS, TWO_FACTOR_CODE_SECONDS } from '../../../shared/schemas/auth';
import type { Language } from '../../../shared/schemas/common';
import { getPorts } from '../container';
import { getEnv } from '../env';
import { renderLayout, type EmailContent, type RenderedEmail } from './layout';

/** The values each template needs. */
const templateVars = {
  twoFactorCode: ['code'],
  passwordReset: ['link'],
  welcome: ['firstName', 'username', 'loginUrl'],
  attestReminder: ['firstName', 'month', 'tripLogUrl'],
  alarm: ['unit', 'what', 'when', 'where', 'mapUrl'],
  smsCreditsOut: ['unit', 'receiversUrl'],
  smsCreditsLow: ['balance', 'threshold', 'receiversUrl'],
  userInvite: ['firstName', 'username', 'link', 'days'],
  reportReady: ['report', 'period', 'link'],
  autoplanResult: ['month', 'reported', 'vehicles', 'details', 'tripLogUrl'],
} as const;

export type EmailTemplate = keyof typeof templateVars;
export type TemplateVars<T extends EmailTemplate> = Record<(typeof templateVars)[T][number], string>;

type Build = (t: (key: string, extra?: Record<string, string | number>) => string, vars: Record<string, string>) => EmailContent;

const builders: Record<EmailTemplate, Build> = {
  twoFactorCode: (t, vars) => ({
    subject: t('EmailTwoFactorSubject'),
    heading: t('EmailTwoFactorHeading'),
    blocks: [
      { kind: 'text', text: t('EmailTwoFactorIntro') },
      { kind: 'code', code: vars['code'] ?? '' },
      { kind: 'text', text: t('EmailTwoFactorValidity', { minutes: TWO_FACTOR_CODE_SECONDS / 60 }) },
      { kind: 'text', text: t('EmailTwoFactorIgnore') },
    ],
    footer: t('EmailFooter'),
  }),
  passwordReset: (t, vars) => ({
    subject: t('EmailResetSubject'),
    heading: t('EmailResetHeading'),
    blocks: [
      { kind: 'text', text: t('EmailResetIntro') },
      { kind: 'action', label: t('EmailResetAction'), url: vars['link'] ?? '', fallback: t('EmailLinkFallback') },
      { kind: 'text', text: t('EmailResetValidity', { minutes: RESET_LINK_SECONDS / 60 }) },
      { kind: 'text', text: t('EmailResetIgnore') },
    ],
    footer: t('EmailFooter'),
  }),
  welcome: (t, vars) => ({
    subject: t('EmailWelcomeSubject'),
    heading: t('EmailWelcomeHeading'),
    blocks: [
      { kind: 'text', text: t('EmailWelcomeIntro') },
      { kind: 'action', label: t('EmailWelcomeAction'), url: vars['loginUrl'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('EmailFooter'),
  }),
  attestReminder: (t, vars) => ({
    subject: t('EmailAttestReminderSubject'),
    heading: t('EmailAttestReminderHeading'),
    blocks: [
      { kind: 'text', text: t('EmailAttestReminderGreeting') },
      { kind: 'text', text: t('EmailAttestReminderIntro') },
      { kind: 'action', label: t('EmailAttestReminderAction'), url: vars['tripLogUrl'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('EmailAttestReminderFooter'),
  }),
  alarm: (t, vars) => ({
    subject: t('AlarmEmailSubject'),
    heading: t('AlarmEmailHeading'),
    blocks: [
      { kind: 'text', text: t('AlarmEmailUnit') },
      { kind: 'text', text: t('AlarmEmailWhen') },
      { kind: 'text', text: t('AlarmEmailWhere') },
      { kind: 'action', label: t('AlarmEmailAction'), url: vars['mapUrl'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('AlarmEmailFooter'),
  }),
  smsCreditsOut: (t, vars) => ({
    subject: t('SmsCreditsOutSubject'),
    heading: t('SmsCreditsOutHeading'),
    blocks: [
      { kind: 'text', text: t('SmsCreditsOutIntro') },
      { kind: 'action', label: t('SmsCreditsOutAction'), url: vars['receiversUrl'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('EmailFooter'),
  }),
  smsCreditsLow: (t, vars) => ({
    subject: t('SmsCreditsLowSubject'),
    heading: t('SmsCreditsLowHeading'),
    blocks: [
      { kind: 'text', text: t('SmsCreditsLowIntro') },
      { kind: 'action', label: t('SmsCreditsOutAction'), url: vars['receiversUrl'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('EmailFooter'),
  }),
  // A user an account admin created (functions/administration): the link sets their first password once.
  userInvite: (t, vars) => ({
    subject: t('EmailInviteSubject'),
    heading: t('EmailInviteHeading'),
    blocks: [
      { kind: 'text', text: t('EmailInviteIntro') },
      { kind: 'action', label: t('EmailInviteAction'), url: vars['link'] ?? '', fallback: t('EmailLinkFallback') },
      { kind: 'text', text: t('EmailInviteValidity') },
      { kind: 'text', text: t('EmailInviteIgnore') },
    ],
    footer: t('EmailFooter'),
  }),
  // A scheduled report's export is done (functions/reports/schedule-mail.ts): the portal link, never the file's own URL.
  reportReady: (t, vars) => ({
    subject: t('EmailReportReadySubject'),
    heading: t('EmailReportReadyHeading'),
    blocks: [
      { kind: 'text', text: t('EmailReportReadyIntro') },
      { kind: 'action', label: t('EmailReportReadyAction'), url: vars['link'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('EmailReportReadyFooter'),
  }),
  // The monthly automatic Autoplan report (functions/reports/autoplan-automatic.ts): one line per vehicle.
  autoplanResult: (t, vars) => ({
    subject: t('EmailAutoplanSubject'),
    heading: t('EmailAutoplanHeading'),
    blocks: [
      { kind: 'text', text: t('EmailAutoplanIntro') },
      ...(vars['details'] ?? '').split('\n').map((line) => ({ kind: 'text' as const, text: line })),
      { kind: 'action', label: t('EmailAutoplanAction'), url: vars['tripLogUrl'] ?? '', fallback: t('EmailLinkFallback') },
    ],
    footer: t('EmailAutoplanFooter'),
  }),
};

/** Renders a template without sending it (tests and previews). */
export function renderTemplate(
  template: EmailTemplate,
  lang: Language,
  subsiteId: number,
  vars: Record<string, string>,
  appUrl: string = getEnv().APP_URL,
): RenderedEmail {
  const missing = templateVars[template].filter((name) => typeof vars[name] !== 'string' || vars[name] === '');
  if (missing.length) throw new Error(`e-mail template ${template} needs ${missing.join(', ')}`);
  const brand = brandById(subsiteId);
  const t = (key: string, extra: Record<string, string | number> = {}) => translateKey(lang, key, { ...vars, ...extra, brand: brand.title });
  return renderLayout(builders[template](t, vars), { brand, lang, appUrl });
}

export async function sendTemplatedEmail(
  template: EmailTemplate,
  to: string,
  lang: Language,
  subsiteId: number,
  vars: Record<string, string>,
): Promise<void> {
  const email = renderTemplate(template, lang, subsiteId, vars);
  await getPorts().mailer.send({ to, ...email });
}
