import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unlockUnit } from './lock-service';

export const handler = httpHandler(routes.unlockUnit, async ({ auth, params, ports, timeZone }) => unlockUnit(auth, params.imei, ports, timeZone));
