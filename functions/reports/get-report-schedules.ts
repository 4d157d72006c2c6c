import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listSchedules } from './schedule-service';

export const handler = httpHandler(routes.getReportSchedules, async ({ auth }) => ({ schedules: await listSchedules(auth) }));
