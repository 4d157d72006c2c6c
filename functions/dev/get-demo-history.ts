/**
 * GET /api/dev/demo-history: whether the embedded runtime is still filling the caller's account
 * with its demo history (infra/local/demo-history.ts), and how far it got; the trip log shows a
 * notice while it is. Embedded only: on AWS the route does not exist.
 */
import { routes } from '../../shared/routes';
import { demoFillOf } from '../platform/adapters/embedded/demo-fill';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getDemoHistory, async ({ auth }) => {
  const done = demoFillOf(auth.accountId);
  return done === null ? { filling: false, percent: 100 } : { filling: true, percent: Math.min(99, Math.floor(done * 100)) };
});
