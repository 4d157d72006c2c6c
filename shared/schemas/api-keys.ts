/**
 * API keys (docs/decisions/0045-api-keys-and-typed-client.md): what an account admin creates, lists
 * and revokes under /api/v1/administration/api-keys, the scopes a key may hold, and the call log
 * of a key. The scope a member route opens to keys is its `apiKeyScope` in the route manifest.
 */
import { z } from 'zod';

/** What a key may do; each member route open to keys names one of them (RouteDef.apiKeyScope). */
export const apiKeyScopes = ['units:read', 'trips:read', 'events:read', 'reports:read', 'commands:send', 'geofences:write'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];

export const API_KEY_NAME_MAX = 100;
/** Active (not revoked) keys an account may hold at once. */
export const MAX_ACTIVE_API_KEYS = 50;
/** Calls one key may make in one window (fixed window, functions/platform/rate-limit.ts). */
export const API_KEY_RATE_LIMIT = 120;
export const API_KEY_RATE_WINDOW_SECONDS = 60;
/** How long a call stays in a key's call log. */
export const API_KEY_CALL_RETENTION_DAYS = 90;
export const API_KEY_CALL_PAGE_MAX = 100;

/** Message keys of API keys: the server answers them, the browser translates them (shared/i18n/features/api-keys). */
export const apiKeyMessageKeys = {
  ApiKeyNameRequired: 'ApiKeyNameRequired',
  ApiKeyNameTooLong: 'ApiKeyNameTooLong',
  ApiKeyScopesRequired: 'ApiKeyScopesRequired',
  InvalidApiKeyScope: 'InvalidApiKeyScope',
  TooManyApiKeys: 'TooManyApiKeys',
  ApiKeyNotFound: 'ApiKeyNotFound',
  ApiKeyRevoked: 'ApiKeyRevoked',
  /** A key on a route no key may call (administration, support, or a member route without a scope). */
  ApiKeyNotAllowed: 'ApiKeyNotAllowed',
  /** A key without the scope the route needs. */
  ApiKeyScopeMissing: 'ApiKeyScopeMissing',
  /** A report a key asks for that would be made by an export job (more than a month or 20 units). */
  ApiKeyReportTooLarge: 'ApiKeyReportTooLarge',
} as const;
const keys = apiKeyMessageKeys;

export const apiKeyScopeSchema = z.enum(apiKeyScopes, { error: keys.InvalidApiKeyScope });

export const apiKeyCreateSchema = z.object({
  name: z.string({ error: keys.ApiKeyNameRequired }).trim().min(1, keys.ApiKeyNameRequired).max(API_KEY_NAME_MAX, keys.ApiKeyNameTooLong),
  scopes: z
    .array(apiKeyScopeSchema, { error: keys.ApiKeyScopesRequired })
    .min(1, keys.ApiKeyScopesRequired)
    .max(apiKeyScopes.length * 2, keys.InvalidApiKeyScope)
    // Each scope once, in the order of apiKeyScopes.
    .transform((list) => apiKeyScopes.filter((s) => list.includes(s))),
});
export type ApiKeyCreate = z.input<typeof apiKeyCreateSchema>;

export const apiKeyIdParamSchema = z.object({ id: z.string().min(1).max(64) });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; the key itself is shown once, at creation. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: z.string(),
  /** The login name of the admin who created it. */
  createdBy: z.string(),
  /** The latest call made with it (to the minute), or null. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.output<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({
  keys: z.array(apiKeySchema),
  /** How many active keys the account may hold. */
  maxActive: z.number().int(),
});
export type ApiKeyList = z.output<typeof apiKeyListSchema>;

/** 201 of a create: the key itself, shown this once. */
export const apiKeyCreatedSchema = z.object({ id: z.string(), key: z.string() });
export type ApiKeyCreated = z.output<typeof apiKeyCreatedSchema>;

export const apiKeyCallsQuerySchema = z.object({
  limit: z.coerce.number({ error: 'InvalidValue' }).int('InvalidValue').min(1, 'InvalidValue').max(API_KEY_CALL_PAGE_MAX, 'InvalidValue').optional(),
  cursor: z.string().min(1, 'InvalidCursor').max(1000, 'InvalidCursor').optional(),
});

export const apiKeyCallSchema = z.object({
  at: z.string(),
  operationId: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  client: z.string(),
});
export type ApiKeyCall = z.output<typeof apiKeyCallSchema>;

export const apiKeyCallListSchema = z.object({ calls: z.array(apiKeyCallSchema), nextCursor: z.string().nullable() });
export type ApiKeyCallList = z.output<typeof apiKeyCallListSchema>;
