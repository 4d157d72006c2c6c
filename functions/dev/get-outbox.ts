/**
 * GET /api/dev/outbox: what the embedded runtime sent instead of e-mail, SMS and push, newest
 * first, for the dev page and for tests that need a code or a link from a message. Embedded only.
 *
 * The messages hold password-reset links and 2FA codes, so only this machine may read them, even
 * when HOST exposes the runtime to a network. The address is the socket's (the embedded server
 * puts it in `sourceIp`), never a forwarded header a client could write.
 */
import { isLoopbackAddress } from '../../shared/network';
import { routes } from '../../shared/routes';
import { readOutbox } from '../platform/adapters/embedded/outbox';
import { ForbiddenError } from '../platform/errors';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getOutbox, async ({ query, event }) => {
  if (!isLoopbackAddress(event.requestContext.http.sourceIp)) throw new ForbiddenError();
  return readOutbox(query);
});
