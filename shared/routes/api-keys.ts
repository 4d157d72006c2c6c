/**
 * The api-keys capability's routes (spread into the manifest, shared/routes.ts): an account admin's
 * API keys and their call logs, and the published OpenAPI document
 * (docs/decisions/0045-api-keys-and-typed-client.md).
 */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import {
  API_KEY_CALL_RETENTION_DAYS,
  API_KEY_NAME_MAX,
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  apiKeyCallListSchema,
  apiKeyCallsQuerySchema,
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyIdParamSchema,
  apiKeyListSchema,
  apiKeyScopes,
  MAX_ACTIVE_API_KEYS,
} from '../schemas/api-keys';

const base = '/api/v1/administration/api-keys';

/** The OpenAPI 3.1 document's outline: the answer's `data` (shared/openapi.ts builds the rest). */
const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

export const apiKeyRoutes = {
  getApiKeys: defineRoute({
    operationId: 'getApiKeys',
    method: 'GET',
    path: base,
    capability: 'api-keys',
    file: 'get-api-keys',
    access: 'admin',
    summary: "The account's API keys, newest first, revoked ones included: name, prefix, scopes, created (and by whom), last used, revoked. Never the key itself.",
    response: apiKeyListSchema,
  }),
  createApiKey: defineRoute({
    operationId: 'createApiKey',
    method: 'POST',
    path: base,
    capability: 'api-keys',
    file: 'post-api-key',
    access: 'admin',
    summary: `Creates an API key with a name (1-${API_KEY_NAME_MAX} characters: ApiKeyNameRequired, ApiKeyNameTooLong) and scopes (at least one of ${apiKeyScopes.join(', ')}: ApiKeyScopesRequired, InvalidApiKeyScope). 201 with the key, shown this once: only its SHA-256 is stored. At most ${MAX_ACTIVE_API_KEYS} active keys per account (422 TooManyApiKeys). The key is sent as \`Authorization: Bearer <key>\` on the member routes whose x-api-key-scope it holds (403 ApiKeyScopeMissing otherwise, 403 ApiKeyNotAllowed on routes without one), acts for the whole account without being an admin, and may make ${API_KEY_RATE_LIMIT} calls per ${API_KEY_RATE_WINDOW_SECONDS} s (429 with retry-after).`,
    body: apiKeyCreateSchema,
    response: apiKeyCreatedSchema,
  }),
  revokeApiKey: defineRoute({
    operationId: 'revokeApiKey',
    method: 'DELETE',
    path: `${base}/{id}`,
    capability: 'api-keys',
    file: 'delete-api-key',
    access: 'admin',
    summary: "Revokes an API key of the account: from then on it answers 401. A key already revoked stays revoked (200); another account's key or none: 404 ApiKeyNotFound.",
    params: apiKeyIdParamSchema,
    response: z.null(),
  }),
  getApiKeyCalls: defineRoute({
    operationId: 'getApiKeyCalls',
    method: 'GET',
    path: `${base}/{id}/calls`,
    capability: 'api-keys',
    file: 'get-api-key-calls',
    access: 'admin',
    summary: `The calls made with an API key of the account, newest first, in pages (limit 1-100, default 50; cursor: the previous nextCursor): operation, method, path, status, time and client address. Kept ${API_KEY_CALL_RETENTION_DAYS} days. Another account's key: 404 ApiKeyNotFound.`,
    params: apiKeyIdParamSchema,
    query: apiKeyCallsQuerySchema,
    response: apiKeyCallListSchema,
  }),
  getOpenApiDocument: defineRoute({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/api/v1/openapi.json',
    capability: 'api-keys',
    file: 'get-openapi',
    access: 'public',
    summary:
      "The OpenAPI 3.1 document of this API as `data`: every deployed route with its schemas, the bearer scheme (a login's access token or an API key) and, per operation, the API key scope it needs (x-api-key-scope).",
    response: openApiDocumentSchema,
  }),
};
