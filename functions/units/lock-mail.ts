/**
 * The e-mail to a locker whose unit support unlocked (spec section 4: "unlock e-mails the locker"),
 * in the locker's language and brand, in the branded layout every e-mail of the portal uses.
 */
import { brandById } from '../../shared/brands';
import { translateKey } from '../../shared/i18n/index';
import type { Language } from '../../shared/schemas/common';
import { renderLayout, type RenderedEmail } from '../platform/email/layout';

export interface SupportUnlockMail {
  unit: string;
  imei: string;
  /** When it was unlocked, as the locker reads it. */
  when: string;
  unitUrl: string;
}

export function renderSupportUnlockMail(lang: Language, subsiteId: number, vars: SupportUnlockMail, appUrl: string): RenderedEmail {
  const brand = brandById(subsiteId);
  const t = (key: string) => translateKey(lang, key, { ...vars, brand: brand.title });
  return renderLayout(
    {
      subject: t('LockEmailUnlockedSubject'),
      heading: t('LockEmailUnlockedHeading'),
      blocks: [
        { kind: 'text', text: t('LockEmailUnlockedIntro') },
        { kind: 'text', text: t('LockEmailUnlockedWhen') },
        { kind: 'action', label: t('LockEmailUnlockedAction'), url: vars.unitUrl, fallback: t('EmailLinkFallback') },
      ],
      footer: t('EmailFooter'),
    },
    { brand, lang, appUrl },
  );
}
