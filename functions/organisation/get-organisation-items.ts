import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { organisationList } from './organisation-service';

export const handler = httpHandler(routes.getOrganisationItems, async ({ auth, params }) => ({
  items: await organisationList(auth.accountId, params.kind, auth.lang),
}));
