import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeSchedule } from './schedule-service';

export const handler = httpHandler(routes.deleteReportSchedule, async ({ auth, params }) => {
  await removeSchedule(auth, params.id);
  return null;
});
