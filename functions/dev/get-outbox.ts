/**
 * GET /api/dev/outbox: what the embedded runtime sent instead of e-mail, SMS and push, newest
 * first, for the dev page and for tests that need a code or a link from a message. Embedded only.
 */
import { routes } from '../../shared/routes';
import { readOutbox } from '../platform/adapters/embedded/outbox';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getOutbox, async ({ query }) => readOutbox(query));
