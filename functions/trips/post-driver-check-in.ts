import { routes } from '../../shared/routes';
import { idempotentHandler } from '../platform/idempotency';
import { checkInDriver } from './check-in-service';

export const handler = idempotentHandler(routes.driverCheckIn, async ({ auth, body, timeZone, ports }) =>
  checkInDriver(auth, body, timeZone, ports.clock.now().getTime(), ports),
);
