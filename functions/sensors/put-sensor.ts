import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { editSensor } from './sensor-service';

export const handler = httpHandler(routes.updateSensor, ({ auth, params, body, ports }) => editSensor(auth, params.imei, params.id, body, ports.clock.now().getTime()));
