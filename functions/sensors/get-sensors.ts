import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listSensors } from './sensor-service';

export const handler = httpHandler(routes.getSensors, ({ auth, params }) => listSensors(auth, params.imei));
