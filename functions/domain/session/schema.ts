/**
 * Login sessions, the `session#<sessionId>` items of the `tokens` table (shared/tables.ts): their
 * owner is this folder. Created at login (functions/auth/sessions.ts), read by the middleware on
 * every request that is not public (functions/platform/auth-context.ts), deleted at logout.
 */
import { z } from 'zod';
import { sessionGenerationOf, type UserRecord } from '../user/schema';

/** A login session in the tokens table (`session#<sessionId>`); deleting it logs the browser out. */
export interface SessionRecord {
  id: string;
  userId: string;
  /** The user's sessionGeneration when the session began; absent means 0. */
  generation?: number;
  createdAt: string;
  expiresAt: number;
}

export const sessionItemId = (sessionId: string): string => `session#${sessionId}`;


export const sessionItemSchema = z.object({
  id: z.string().startsWith('session#'),
  userId: z.string().min(1),
  generation: z.number().int().nonnegative().optional(),
  createdAt: z.string(),
  expiresAt: z.number(),
}) satisfies z.ZodType<SessionRecord>;

export class CorruptSessionItemError extends Error {
  override name = 'CorruptSessionItemError';
}

/** The item as read, or an error naming the fields that are malformed or missing. */
export function parseSessionItem(raw: Record<string, unknown>): SessionRecord {
  const parsed = sessionItemSchema.safeParse(raw);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(item)').join(', ');
    throw new CorruptSessionItemError(`session item ${JSON.stringify(raw['id'])} is malformed at ${where}`);
  }
  return parsed.data;
}

/** A session counts while it is unexpired and of the user's current generation. */
export function isCurrentSession(session: SessionRecord | undefined | null, user: Pick<UserRecord, 'userId' | 'sessionGeneration'> | undefined | null, now: Date): session is SessionRecord {
  if (!session || !user || session.userId !== user.userId) return false;
  // TTL deletion lags by up to days, so expiry is checked here too.
  if (session.expiresAt * 1000 <= now.getTime()) return false;
  return (session.generation ?? 0) === sessionGenerationOf(user);
}

