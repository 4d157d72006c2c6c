import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { replaceSchedule } from './schedule-service';

export const handler = httpHandler(routes.putReportSchedule, async ({ auth, params, body, timeZone, ports }) => {
  return replaceSchedule(auth, params.id, body, timeZone, ports.clock.now().getTime());
});
