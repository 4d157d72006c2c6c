import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listItems } from './organisation-items';

export const handler = httpHandler(routes.getProjectNames, async ({ auth }) => ({
  projects: (await listItems(auth.accountId, 'projects')).map((p) => p.name).sort((a, b) => a.localeCompare(b, auth.lang)),
}));
