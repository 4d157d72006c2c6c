import { routes } from '../../shared/routes';
import { alertTimeZonesFor } from '../../shared/schemas/alarms';
import { alarmMessageKeys as keys } from '../../shared/schemas/alarms-messages';
import { ValidationError } from '../platform/errors';
import { HttpReply, httpHandler } from '../platform/http';
import { getAccountRecord, setAccountFields } from './account-data';

export const handler = httpHandler(routes.setAlertConfig, async ({ auth, body }) => {
  const account = await getAccountRecord(auth.accountId);
  // Asia/Kathmandu only under the one parent account that has it (spec section 6).
  if (!alertTimeZonesFor(account.parentId).includes(body.timezone)) throw new ValidationError({ timezone: [keys.InvalidAlertTimeZone] });
  await setAccountFields(auth.accountId, { alertLanguage: body.language, alertTimeZone: body.timezone });
  return new HttpReply(200, null, keys.AlertSettingsSaved);
});
