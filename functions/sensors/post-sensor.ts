import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { createSensor } from './sensor-service';

export const handler = httpHandler(routes.createSensor, async ({ auth, params, body, ports }) => created(await createSensor(auth, params.imei, body, ports)));
