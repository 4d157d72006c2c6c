/**
 * What a route of the manifest (shared/routes.ts) is. Kept apart from the manifest so that the
 * route files of single capabilities (shared/routes/<capability>.ts) can define theirs.
 */
import type { z } from 'zod';
import type { FeatureRequirement } from './features';
import type { ApiKeyScope } from './schemas/api-keys';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who may call: anyone, a logged-in user, an account admin, support staff. */
export type Access = 'public' | 'member' | 'admin' | 'support';

export const capabilities = [
  'auth', 'registration', 'tracking', 'trips', 'geofences', 'places', 'alarms', 'events', 'sensors', 'bookings', 'safe-home',
  'units', 'rfid', 'administration', 'ingest', 'live', 'jobs', 'content', 'dev', 'organisation', 'support', 'reports', 'vitals',
  'webhooks',
  'push',
  'api-keys',
] as const;
export type Capability = (typeof capabilities)[number];

export interface RouteDef<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax, `{name}` for a path parameter. */
  readonly path: string;
  readonly capability: Capability;
  /** Handler file name inside `functions/<capability>/`, without extension. */
  readonly file: string;
  readonly access: Access;
  /**
   * The account feature the route belongs to (shared/features.ts). The middleware answers 403 with
   * the feature's message key while the caller's account does not have it. Not on public routes.
   */
  readonly feature?: FeatureRequirement;
  readonly summary: string;
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  /** The `data` of a successful answer. */
  readonly response?: R;
  /** Answers 302 with a `Location` (and no body) instead of a JSON success: a portal link to a file. */
  readonly redirects?: true;
  /**
   * The largest request body the route reads, in bytes; a larger one is answered 413
   * `PayloadTooLarge` before it is parsed (a public route taking reports from any browser).
   */
  readonly maxBodyBytes?: number;
  /** Served only by the embedded runtime, never deployed. */
  readonly embeddedOnly?: boolean;
  /**
   * The API key scope that opens this member route to `Authorization: Bearer <API key>`
   * (docs/decisions/0045-api-keys-and-typed-client.md). A route without one answers an API key 403;
   * only `member` routes may have one.
   */
  readonly apiKeyScope?: ApiKeyScope;
}

export function defineRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  route: RouteDef<B, Q, P, R>,
): RouteDef<B, Q, P, R> {
  return route;
}

