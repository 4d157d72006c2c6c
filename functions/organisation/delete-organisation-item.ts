import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeItem } from './organisation-service';

export const handler = httpHandler(routes.deleteOrganisationItem, async ({ auth, params }) => {
  await removeItem(auth.accountId, params.kind, params.id);
  return null;
});
