import { routes } from '../../shared/routes';
import type { LiveConnection } from '../../shared/schemas/tracking';
import { bearerToken } from '../platform/auth-context';
import { getEnv } from '../platform/env';
import { UnauthenticatedError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { liveSubscriptionsFor, newLiveClientId } from './live-access';
import { liveEndpointUrl } from './live-endpoint';

export const handler = httpHandler(routes.getLiveConnection, async ({ auth, event }): Promise<LiveConnection> => {
  // The middleware has verified this very token; the broker's authorizer checks it again on connect.
  const token = bearerToken(event.headers['authorization']);
  if (!token) throw new UnauthenticatedError();
  return {
    url: liveEndpointUrl(getEnv()),
    clientId: newLiveClientId(auth.userId),
    // Only the password counts; the user id makes the connection recognisable in broker logs.
    username: auth.userId,
    password: token,
    topics: liveSubscriptionsFor(auth),
  };
});
