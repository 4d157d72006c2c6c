import { routes } from '../../shared/routes';
import { httpHandler, Redirect } from '../platform/http';
import { downloadUrl } from './export-service';

export const handler = httpHandler(routes.downloadReportExport, async ({ auth, params, ports }) => {
  return new Redirect(await downloadUrl(auth, params.id, ports, ports.clock.now().getTime()));
});
