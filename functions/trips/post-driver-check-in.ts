import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { checkInDriver } from './check-in-service';

export const handler = httpHandler(routes.driverCheckIn, async ({ auth, body, timeZone, ports }) =>
  checkInDriver(auth, body, timeZone, ports.clock.now().getTime(), ports),
);
