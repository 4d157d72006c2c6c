import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listAccountUsers } from './organisation-repository';

export const handler = httpHandler(routes.getOrganisationMembers, async ({ auth }) => {
  const users = (await listAccountUsers(auth.accountId)).map((u) => ({
    id: u.userId,
    name: `${u.firstName} ${u.lastName}`.trim() || u.email,
    email: u.email,
    isAdmin: u.isAdmin,
  }));
  return { users: users.sort((a, b) => a.name.localeCompare(b.name, auth.lang)) };
});
