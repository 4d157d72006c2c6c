/**
 * Registering and removing a user's subscribed browsers (docs/decisions/0048-web-push.md).
 * The endpoint rules are shared/push-endpoint.ts: on AWS https on a public host only, in the
 * embedded runtime also the loopback address (tests' push services).
 */
import { pushEndpointProblem } from '../../shared/push-endpoint';
import { PUSH_SUBSCRIPTIONS_MAX, pushMessageKeys, type PushSubscriptionRequest, type PushSubscriptionView } from '../../shared/schemas/push';
import type { AuthContext } from '../platform/auth-context';
import { getEnv } from '../platform/env';
import { NotFoundError, ValidationError } from '../platform/errors';
import { deleteOwnSubscription, putSubscription, subscriptionIdOf, subscriptionsOf } from './subscriptions';

type Caller = Pick<AuthContext, 'userId' | 'accountId'>;

export async function registerSubscription(caller: Caller, body: PushSubscriptionRequest, now: Date): Promise<{ id: string }> {
  const problem = pushEndpointProblem(body.endpoint, { allowLoopback: getEnv().RUNTIME === 'embedded' });
  if (problem) throw new ValidationError({ endpoint: [problem] });
  const id = subscriptionIdOf(body.endpoint);
  const own = await subscriptionsOf(caller.userId);
  if (!own.some((s) => s.id === id) && own.length >= PUSH_SUBSCRIPTIONS_MAX) {
    throw new ValidationError({ endpoint: [pushMessageKeys.TooManyPushSubscriptions] }, pushMessageKeys.TooManyPushSubscriptions);
  }
  await putSubscription({
    id,
    userId: caller.userId,
    accountId: caller.accountId,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    createdAt: now.toISOString(),
  });
  return { id };
}

export async function listSubscriptions(caller: Caller): Promise<{ subscriptions: PushSubscriptionView[] }> {
  const own = await subscriptionsOf(caller.userId);
  return { subscriptions: own.map((s) => ({ id: s.id, host: new URL(s.endpoint).host, createdAt: s.createdAt })) };
}

export async function removeSubscription(caller: Caller, query: { id?: string | undefined; endpoint?: string | undefined }): Promise<{ removed: true }> {
  const id = query.id ?? subscriptionIdOf(query.endpoint ?? '');
  if (!(await deleteOwnSubscription(caller.userId, id))) throw new NotFoundError(pushMessageKeys.PushSubscriptionNotFound);
  return { removed: true };
}
