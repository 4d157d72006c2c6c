/**
 * The embedded broker's check of browser subscriptions, with the live channel's own code
 * (functions/live/live-access.ts), as IoT Core's custom authorizer does on AWS. A browser connects
 * with any username and its access token as password; every SUBSCRIBE is checked against the
 * topics that token grants over a connection with that client id, and a refused one gets SUBACK
 * 0x80 while the connection stays open. Every `REFRESH_SECONDS` the broker runs the authorizer
 * again for each browser it granted a subscription (`refreshLiveAuthorization`), as IoT Core does.
 */
import { allowsSubscription, authorizeLive } from '../../functions/live/live-access';
import { DomainError } from '../../functions/platform/errors';
import type { SubscribeAuthorizer } from './broker';

/**
 * The authorizer again for a connected browser, every refresh period as IoT Core calls it: it
 * renews the watch mark of the accounts the browser reads (functions/domain/account/live-watch.ts).
 */
export async function refreshLiveAuthorization(client: { id: string; password?: Buffer }): Promise<void> {
  if (!client.password?.length) return;
  await authorizeLive(client.password.toString('utf8'), client.id).catch((error: unknown) => {
    if (!(error instanceof DomainError)) console.error('live authorizer refresh failed', error);
  });
}

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
