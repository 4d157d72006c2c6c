/** GET /api/v1/support/web-vitals: support's percentiles of the web vitals over the last 24 hours or 7 days. */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { vitalsReport } from './store';

export const handler = httpHandler(routes.getSupportWebVitals, async ({ query, ports }) => vitalsReport(query.period, ports.clock.now()));
