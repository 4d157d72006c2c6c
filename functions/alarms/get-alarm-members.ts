import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listReceivers } from './receiver-repository';
import { candidateMembers } from './receiver-service';

export const handler = httpHandler(routes.getAlarmMembers, async ({ auth }) => {
  const members = await candidateMembers(auth.accountId, await listReceivers(auth.accountId));
  return {
    members: members.map((m) => ({ ID: m.userId, FirstName: m.firstName, LastName: m.lastName, Email: m.email, HasPushId: m.hasPush })),
  };
});
