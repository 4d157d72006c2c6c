import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { vehicleDrivers } from './booking-service';

export const handler = httpHandler(routes.getCarScheduleDrivers, async ({ auth, body }) => ({ members: await vehicleDrivers(auth, body.imei) }));
