/**
 * The e-mail to an account's admins when the portal pauses a failing webhook subscription: once
 * per admin and pause, in the admin's language and brand, in the branded layout of every e-mail.
 * Each admin's e-mail is claimed before it is sent and the claim released when sending fails, so a
 * retry of the delivery message sends what is missing and nothing twice.
 */
import { brandById } from '../../shared/brands';
import { translateKey } from '../../shared/i18n/index';
import type { Language } from '../../shared/schemas/common';
import { paths } from '../../shared/web-routes';
import { accountUserFields } from '../domain/user/reads';
import { renderLayout, type RenderedEmail } from '../platform/email/layout';
import { getEnv } from '../platform/env';
import type { Ports } from '../platform/ports';
import { claimPauseMail, markPauseMailDone, releasePauseMail, type HookItem } from './repository';

export function renderPauseMail(lang: Language, subsiteId: number, vars: { url: string; failures: number; pageUrl: string }, appUrl: string): RenderedEmail {
  const brand = brandById(subsiteId);
  const t = (key: string) => translateKey(lang, key, { url: vars.url, failures: vars.failures, brand: brand.title });
  return renderLayout(
    {
      subject: t('WebhookPausedEmailSubject'),
      heading: t('WebhookPausedEmailHeading'),
      blocks: [
        { kind: 'text', text: t('WebhookPausedEmailIntro') },
        { kind: 'text', text: t('WebhookPausedEmailWhat') },
        { kind: 'action', label: t('WebhookPausedEmailAction'), url: vars.pageUrl, fallback: t('EmailLinkFallback') },
      ],
      footer: t('EmailFooter'),
    },
    { brand, lang, appUrl },
  );
}

/** Sends the pause e-mail of `hook` (paused for failing, with its pause id) to each admin that has not had it; answers how many were sent. */
export async function sendPauseMails(hook: HookItem, ports: Pick<Ports, 'mailer' | 'clock'>): Promise<number> {
  const pauseId = hook.pauseId;
  if (hook.active || hook.pausedReason !== 'failing' || !pauseId) return 0;
  const appUrl = getEnv().APP_URL;
  const pageUrl = new URL(paths.webhooks, appUrl).href;
  let sent = 0;
  for (const admin of await accountUserFields(hook.accountId, ['userId', 'email', 'isAdmin', 'lang', 'subsiteId'])) {
    if (!admin.isAdmin || !admin.email) continue;
    if (!(await claimPauseMail(hook.accountId, hook.id, pauseId, admin.userId, ports.clock.now().getTime()))) continue;
    try {
      const mail = renderPauseMail(admin.lang, admin.subsiteId, { url: hook.url, failures: hook.consecutiveFailures ?? 0, pageUrl }, appUrl);
      await ports.mailer.send({ to: admin.email, ...mail });
      sent++;
    } catch (error) {
      await releasePauseMail(hook.accountId, hook.id, pauseId, admin.userId);
      throw error;
    }
  }
  await markPauseMailDone(hook.accountId, hook.id, pauseId);
  return sent;
}
