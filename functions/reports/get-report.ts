import { routes } from '../../shared/routes';
import type { ReportModel } from '../../shared/schemas/reports';
import { httpHandler } from '../platform/http';
import { buildReport } from './build';

/** GET /api/v1/user/reports/{kind}: the report model, in the caller's language and the TimeZone header's zone. */
export const handler = httpHandler(routes.getReport, async ({ auth, params, query, timeZone, ports }): Promise<ReportModel> =>
  buildReport({ request: { ...query, kind: params.kind }, caller: auth, lang: auth.lang, timeZone, now: ports.clock.now() }),
);
