/**
 * POST /api/v1/web-vitals: a browser's web vitals of one page view, open before login. The
 * middleware caps the body (413) and checks it (422); then the per-client limit, the metrics
 * (EMF through the logger) and the support page's histograms. Nothing names the user or the
 * client: the address only counts against the limit, in the rate-limit table, for its window.
 */
import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';
import { emitVitalMetrics } from './emf';
import { recordVitals } from './store';

/** Reports per client in a window: a page view sends one to three, many users may share an address. */
export const VITALS_LIMIT = 120;
export const VITALS_WINDOW_SECONDS = 600;

export const handler = httpHandler(routes.postWebVitals, async ({ body, event, ports }) => {
  const now = ports.clock.now();
  await consumeRateLimit(`web-vitals#${clientKey(event)}`, VITALS_LIMIT, VITALS_WINDOW_SECONDS, now);
  emitVitalMetrics(body, now);
  await recordVitals(body, now);
  return { accepted: body.entries.length };
});
