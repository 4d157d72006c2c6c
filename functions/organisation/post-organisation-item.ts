import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { createItem } from './organisation-repository';

export const handler = httpHandler(routes.createOrganisationItem, async ({ auth, params, body, ports }) =>
  created({ id: await createItem(auth.accountId, params.kind, body.name, ports.clock.now()) }),
);
