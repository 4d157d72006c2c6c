/**
 * The reminder to attest a month's trip log, in the recipient's language (en, sv, no) and their
 * brand's layout (functions/platform/email/layout.ts escapes every value).
 *
 * The texts live here, typed per language so that a missing one fails to compile, rather than in
 * shared/i18n/features/email beside the other e-mails (docs/decisions/0006): that module belongs to
 * another part of the code base. Moving them there is a follow-up (docs/decisions/0015-trip-log.md).
 */
import { brandById } from '../../shared/brands';
import type { Language } from '../../shared/schemas/common';
import { getEnv } from '../platform/env';
import { renderLayout, type RenderedEmail } from '../platform/email/layout';

interface ReminderTexts {
  subject: (v: { brand: string; month: string }) => string;
  heading: (v: { month: string }) => string;
  greeting: (v: { firstName: string }) => string;
  intro: (v: { month: string }) => string;
  action: string;
  fallback: string;
  footer: (v: { brand: string }) => string;
}

const texts: Record<Language, ReminderTexts> = {
  en: {
    subject: ({ brand, month }) => `Please attest your trip log for ${month} (${brand})`,
    heading: ({ month }) => `Time to attest ${month}`,
    greeting: ({ firstName }) => `Hello ${firstName},`,
    intro: ({ month }) => `Your trip log for ${month} has not been attested yet. Check your trips, complete their purposes and attest the period.`,
    action: 'Open the trip log',
    fallback: 'If the button does not work, copy this address into your browser:',
    footer: ({ brand }) => `This e-mail was sent by ${brand} at your administrator's request.`,
  },
  sv: {
    subject: ({ brand, month }) => `Attestera din körjournal för ${month} (${brand})`,
    heading: ({ month }) => `Dags att attestera ${month}`,
    greeting: ({ firstName }) => `Hej ${firstName},`,
    intro: ({ month }) => `Din körjournal för ${month} är inte attesterad ännu. Gå igenom dina resor, fyll i syftena och attestera perioden.`,
    action: 'Öppna körjournalen',
    fallback: 'Om knappen inte fungerar, kopiera den här adressen till din webbläsare:',
    footer: ({ brand }) => `Det här e-postmeddelandet skickades av ${brand} på begäran av din administratör.`,
  },
  no: {
    subject: ({ brand, month }) => `Attester kjørejournalen din for ${month} (${brand})`,
    heading: ({ month }) => `På tide å attestere ${month}`,
    greeting: ({ firstName }) => `Hei ${firstName},`,
    intro: ({ month }) => `Kjørejournalen din for ${month} er ikke attestert ennå. Gå gjennom turene dine, fyll inn formålene og attester perioden.`,
    action: 'Åpne kjørejournalen',
    fallback: 'Hvis knappen ikke virker, kopier denne adressen inn i nettleseren:',
    footer: ({ brand }) => `Denne e-posten ble sendt av ${brand} på forespørsel fra administratoren din.`,
  },
};

/** "mars 2025" in the recipient's language. */
export function monthName(month: string, lang: Language): string {
  const [y = 1970, m = 1] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(lang === 'no' ? 'nb' : lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** The trip log page of the web app (spec section 2). */
export const TRIP_LOG_PATH = '/user/create-triplog';

export function renderReminderEmail(v: { lang: Language; subsiteId: number; firstName: string; month: string }, appUrl: string = getEnv().APP_URL): RenderedEmail {
  const brand = brandById(v.subsiteId);
  const t = texts[v.lang] ?? texts.en;
  const month = monthName(v.month, v.lang);
  const url = new URL(TRIP_LOG_PATH, appUrl).href;
  return renderLayout(
    {
      subject: t.subject({ brand: brand.title, month }),
      heading: t.heading({ month }),
      blocks: [
        { kind: 'text', text: t.greeting({ firstName: v.firstName }) },
        { kind: 'text', text: t.intro({ month }) },
        { kind: 'action', label: t.action, url, fallback: t.fallback },
      ],
      footer: t.footer({ brand: brand.title }),
    },
    { brand, lang: v.lang, appUrl },
  );
}
