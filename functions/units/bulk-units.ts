import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { runBulk } from './bulk-units-service';

export const handler = httpHandler(routes.bulkUnits, async ({ auth, body, ports }) => ({ results: await runBulk(auth, body.imeis, body.action, ports) }));
