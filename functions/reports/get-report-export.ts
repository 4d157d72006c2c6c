import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { ownJob } from './export-service';
import { toReportJob } from './export-request';

export const handler = httpHandler(routes.getReportExport, async ({ auth, params, timeZone, ports }) => {
  const job = await ownJob(auth, params.id, ports, ports.clock.now().getTime());
  return { job: toReportJob(job, timeZone) };
});
