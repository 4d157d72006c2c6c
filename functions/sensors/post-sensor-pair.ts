import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { repairSensor } from './sensor-service';

export const handler = httpHandler(routes.pairSensor, ({ auth, params, ports }) => repairSensor(auth, params.imei, params.id, ports));
