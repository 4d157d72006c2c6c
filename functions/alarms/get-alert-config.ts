import { routes } from '../../shared/routes';
import { DEFAULT_ALERT_LANGUAGE, DEFAULT_ALERT_TIME_ZONE } from '../../shared/schemas/alarms';
import { httpHandler } from '../platform/http';
import { getAccountRecord } from './account-data';

export const handler = httpHandler(routes.getAlertConfig, async ({ auth }) => {
  const account = await getAccountRecord(auth.accountId);
  return { Language: account.alertLanguage ?? DEFAULT_ALERT_LANGUAGE, TimeZone: account.alertTimeZone ?? DEFAULT_ALERT_TIME_ZONE };
});
