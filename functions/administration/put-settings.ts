import { routes } from '../../shared/routes';
import { administrationMessageKeys as keys } from '../../shared/schemas/administration-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { writeSettings } from './settings-repository';

export const handler = httpHandler(routes.updateAccountSettings, async ({ auth, body, timeZone }) => {
  return new HttpReply(200, await writeSettings(auth.accountId, body, auth, timeZone), keys.SettingsSaved);
});
