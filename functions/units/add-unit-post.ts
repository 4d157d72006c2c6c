import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { addUnit } from './add-unit-service';

export const handler = httpHandler(routes.addUnit, async ({ auth, body, ports }) => created(await addUnit(auth, body, ports)));
