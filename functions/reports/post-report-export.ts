import { routes } from '../../shared/routes';
import { accepted, httpHandler } from '../platform/http';
import { startExport } from './export-service';
import { toReportJob } from './export-request';

export const handler = httpHandler(routes.postReportExport, async ({ auth, body, timeZone, ports }) => {
  const job = await startExport(auth, body, timeZone, ports, ports.clock.now().getTime());
  return accepted({ job: toReportJob(job, timeZone) });
});
