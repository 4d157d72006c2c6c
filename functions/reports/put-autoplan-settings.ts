import { routes } from '../../shared/routes';
import { autoplanMessageKeys as keys } from '../../shared/schemas/autoplan';
import { HttpReply, httpHandler } from '../platform/http';
import { writeAutomatic } from './autoplan-repository';

export const handler = httpHandler(routes.putAutoplanSettings, async ({ auth, body, ports }) => {
  await writeAutomatic(auth.accountId, body.automatic, auth.userId, ports.clock.now().getTime());
  return new HttpReply(200, { automatic: body.automatic }, keys.AutoplanSettingsSaved);
});
