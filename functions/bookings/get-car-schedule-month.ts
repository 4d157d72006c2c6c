import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { monthSchedule } from './booking-service';

export const handler = httpHandler(routes.getCarScheduleMonth, async ({ auth, query, timeZone, ports }) => monthSchedule(auth, timeZone, query, ports.clock.now()));
