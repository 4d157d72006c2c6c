import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getUnitLock } from './lock-service';

export const handler = httpHandler(routes.getUnitLockLog, async ({ auth, params }) => getUnitLock(auth, params.imei));
