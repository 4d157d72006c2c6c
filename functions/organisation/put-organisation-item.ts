import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { renameItem } from './organisation-repository';

export const handler = httpHandler(routes.renameOrganisationItem, async ({ auth, params, body }) => {
  await renameItem(auth.accountId, params.kind, params.id, body.name);
  return null;
});
