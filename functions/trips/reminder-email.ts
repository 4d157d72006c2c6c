/**
 * The reminder to attest a month's trip log: the `attestReminder` e-mail template
 * (functions/platform/email/templates.ts, texts in shared/i18n/features/email) with the month
 * named in the recipient's language and a link to the trip log.
 */
import type { Language } from '../../shared/schemas/common';
import { renderTemplate } from '../platform/email/templates';
import type { RenderedEmail } from '../platform/email/layout';
import { getEnv } from '../platform/env';

/** "mars 2025" in the recipient's language. */
export function monthName(month: string, lang: Language): string {
  const [y = 1970, m = 1] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'no' ? 'nb' : lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** The trip log page of the web app (spec section 2). */
export const TRIP_LOG_PATH = '/user/create-triplog';

export function renderReminderEmail(v: { lang: Language; subsiteId: number; firstName: string; month: string }, appUrl: string = getEnv().APP_URL): RenderedEmail {
  const tripLogUrl = new URL(TRIP_LOG_PATH, appUrl).href;
  return renderTemplate('attestReminder', v.lang, v.subsiteId, { firstName: v.firstName, month: monthName(v.month, v.lang), tripLogUrl }, appUrl);
}
