import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { checkInUnit } from './check-in-service';

export const handler = httpHandler(routes.getCheckInUnit, async ({ auth, params }) => checkInUnit(auth, params.code));
