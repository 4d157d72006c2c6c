import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeSensor } from './sensor-service';

export const handler = httpHandler(routes.deleteSensor, ({ auth, params, ports }) => removeSensor(auth, params.imei, params.id, ports));
