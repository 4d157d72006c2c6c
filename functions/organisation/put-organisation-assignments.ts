import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { assignItem } from './organisation-service';

export const handler = httpHandler(routes.assignOrganisationItem, async ({ auth, params, body }) => {
  await assignItem(auth.accountId, params.kind, params.id, body);
  return null;
});
