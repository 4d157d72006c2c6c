/**
 * The embedded broker's check of browser subscriptions, with the live channel's own code
 * (functions/live/live-access.ts), as IoT Core's custom authorizer does on AWS. A browser connects
 * with any username and its access token as password; every SUBSCRIBE is checked against the
 * topics that token grants over a connection with that client id, and a refused one gets SUBACK
 * 0x80 while the connection stays open.
 */
import { allowsSubscription, authorizeLive } from '../../functions/live/live-access';
import { DomainError } from '../../functions/platform/errors';
import type { SubscribeAuthorizer } from './broker';

export const authorizeLiveSubscribe: SubscribeAuthorizer = async (client, topic) => {
  if (!client.password?.length) return false;
  try {
    return allowsSubscription(await authorizeLive(client.password.toString('utf8'), client.id), topic);
  } catch (error) {
    // A refused token is an answer; a failing database is worth a line in the console.
    if (!(error instanceof DomainError)) console.error('live authorizer failed', error);
    return false;
  }
};
