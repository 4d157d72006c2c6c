/**
 * The low SMS balance warning (docs/decisions/0031-support-settings-and-sms-credits.md): once an
 * SMS has taken a credit, the account's admins get one e-mail when the balance is below the
 * threshold they set (`smsLowBalanceThreshold`, 0 or absent: none). The crossing is claimed with a
 * conditional update (`smsLowBalanceWarnedAt` not set yet and the balance below the threshold),
 * so however many SMS go out at once, exactly one caller sends the e-mail. Support adding credits
 * that bring the balance back to the threshold, or an admin setting the threshold, re-arms it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { languageSchema, type Language } from '../../shared/schemas/common';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { renderTemplate } from '../platform/email/templates';
import { getEnv } from '../platform/env';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { accountUserItems } from '../domain/user/reads';

export const ALARM_RECEIVERS_PATH = '/administration/configure-alarm-receiver';

/** E-mails the account's admins (each in their language, else `fallback`) from one template. */
export async function mailAdmins(
  account: { accountId: string; subsiteId: number; lang: Language },
  render: (lang: Language) => ReturnType<typeof renderTemplate>,
  ports: Pick<Ports, 'mailer'>,
): Promise<void> {
  const admins = await accountUserItems(account.accountId, ['isAdmin', 'email', 'lang']);
  for (const admin of admins) {
    if (admin['isAdmin'] !== true || typeof admin['email'] !== 'string') continue;
    const lang = languageSchema.safeParse(admin['lang']);
    await ports.mailer.send({ to: admin['email'], ...render(lang.success ? lang.data : account.lang) });
  }
}

/** After an SMS took its credit: warns the admins once when the balance is now below their threshold. */
export async function warnIfLowBalance(account: { accountId: string; subsiteId: number; lang: Language }, ports: Pick<Ports, 'mailer' | 'clock'>): Promise<boolean> {
  let balance: number;
  let threshold: number;
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId: account.accountId },
        UpdateExpression: 'SET smsLowBalanceWarnedAt = :now',
        ConditionExpression: 'attribute_not_exists(smsLowBalanceWarnedAt) AND smsLowBalanceThreshold > :zero AND smsCredits < smsLowBalanceThreshold',
        ExpressionAttributeValues: { ':now': ports.clock.now().toISOString(), ':zero': 0 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    balance = Number(out.Attributes?.['smsCredits'] ?? 0);
    threshold = Number(out.Attributes?.['smsLowBalanceThreshold'] ?? 0);
  } catch (error) {
    // Above the threshold, no threshold, or already warned.
    if (isConditionFailure(error)) return false;
    throw error;
  }
  const receiversUrl = new URL(ALARM_RECEIVERS_PATH, getEnv().APP_URL).href;
  try {
    await mailAdmins(account, (lang) => renderTemplate('smsCreditsLow', lang, account.subsiteId, { balance: String(balance), threshold: String(threshold), receiversUrl }), ports);
  } catch (error) {
    // Not sent: re-armed, so that the next SMS tries again (the alarm itself went out).
    logger.warn('low SMS balance warning not sent; re-armed', { accountId: account.accountId, error: error instanceof Error ? error.message : String(error) });
    await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId: account.accountId }, UpdateExpression: 'REMOVE smsLowBalanceWarnedAt' }));
    return false;
  }
  return true;
}
