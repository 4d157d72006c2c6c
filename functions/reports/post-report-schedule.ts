import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { createSchedule } from './schedule-service';

export const handler = httpHandler(routes.postReportSchedule, async ({ auth, body, timeZone, ports }) => {
  return created({ id: await createSchedule(auth, body, timeZone, ports.clock.now().getTime()) });
});
