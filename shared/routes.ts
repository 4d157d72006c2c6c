/**
 * The route manifest: every HTTP route, once. The CDK stack builds API Gateway routes and one
 * Lambda function per capability from it, the embedded runtime dispatches requests with it and the
 * OpenAPI document is generated from it. A handler lives in `functions/<capability>/<file>.ts` and
 * exports `handler`.
 */
import type { z } from 'zod';
import { announcementRequestSchema, announcementSchema, outboxMessageSchema, outboxQuerySchema, settingsSchema } from './schemas/system';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who may call: anyone, a logged-in user, an account admin, support staff. */
export type Access = 'public' | 'member' | 'admin' | 'support';

export const capabilities = [
  'auth', 'registration', 'tracking', 'trips', 'geofences', 'places', 'alarms', 'bookings', 'safe-home',
  'units', 'administration', 'ingest', 'live', 'jobs', 'content', 'dev',
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
  readonly summary: string;
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  /** The `data` of a successful answer. */
  readonly response?: R;
  /** Served only by the embedded runtime, never deployed. */
  readonly embeddedOnly?: boolean;
}

function defineRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType, R extends z.ZodType>(
  route: RouteDef<B, Q, P, R>,
): RouteDef<B, Q, P, R> {
  return route;
}

export const routes = {
  getAnnouncement: defineRoute({
    operationId: 'getAnnouncement',
    method: 'POST',
    path: '/api/v1/announcement',
    capability: 'content',
    file: 'post-announcement',
    access: 'public',
    summary: 'The announcement bar text for a brand and language (null when there is none).',
    body: announcementRequestSchema,
    response: announcementSchema,
  }),
  getSettings: defineRoute({
    operationId: 'getSettings',
    method: 'GET',
    path: '/api/v1/user/settings',
    capability: 'auth',
    file: 'get-settings',
    access: 'member',
    summary: "The caller's feature flags and roles, which drive the menu and route guards.",
    response: settingsSchema,
  }),
  getOutbox: defineRoute({
    operationId: 'getOutbox',
    method: 'GET',
    path: '/api/dev/outbox',
    capability: 'dev',
    file: 'get-outbox',
    access: 'public',
    summary: 'E-mail, SMS and push messages the embedded runtime sent, newest first.',
    query: outboxQuerySchema,
    embeddedOnly: true,
    response: outboxMessageSchema.array(),
  }),
} as const;

export type RouteKey = keyof typeof routes;
export const routeList: readonly RouteDef[] = Object.values(routes);

/** `GET /api/v1/user/settings`: the route key API Gateway puts in `event.routeKey`. */
export function routeKey(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method} ${route.path}`;
}

export function handlerPath(route: Pick<RouteDef, 'capability' | 'file'>): string {
  return `functions/${route.capability}/${route.file}.ts`;
}
