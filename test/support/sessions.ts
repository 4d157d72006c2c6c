/**
 * Logs a seeded user in the way the login handler will: the IdentityProvider checks the password
 * and our session record makes the token valid.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getPorts } from '../../functions/platform/container';
import { dynamo, epochSeconds, tableName } from '../../functions/platform/db';
import { sessionItemId } from '../../functions/platform/records';

export async function loginAs(username: string, password: string): Promise<{ token: string; userId: string; sessionId: string }> {
  const auth = await getPorts().identity.authenticate(username, password);
  if (!auth) throw new Error(`cannot log in as ${username}`);
  const now = new Date();
  await dynamo().send(
    new PutCommand({
      TableName: tableName('tokens'),
      Item: { id: sessionItemId(auth.sessionId), userId: auth.userId, createdAt: now.toISOString(), expiresAt: epochSeconds(now) + 3600 },
    }),
  );
  return { token: auth.tokens.accessToken, userId: auth.userId, sessionId: auth.sessionId };
}
