import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { lockUnit } from './lock-service';

export const handler = httpHandler(routes.lockUnit, async ({ auth, params, ports }) => lockUnit(auth, params.imei, ports));
