import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { weekSchedule } from './booking-service';

export const handler = httpHandler(routes.getCarScheduleWeek, async ({ auth, query, timeZone, ports }) => weekSchedule(auth, timeZone, query, ports.clock.now()));
