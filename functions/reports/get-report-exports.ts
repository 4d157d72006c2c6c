import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listExports } from './export-service';
import { toReportJob } from './export-request';

export const handler = httpHandler(routes.getReportExports, async ({ auth, timeZone, ports }) => {
  const jobs = await listExports(auth, ports, ports.clock.now().getTime());
  return { jobs: jobs.map((job) => toReportJob(job, timeZone)) };
});
