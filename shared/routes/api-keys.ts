/**
 * The api-keys capability's routes (spread into the manifest, shared/routes.ts): an account admin's
 * API keys and their call logs, and the published OpenAPI document
 * (docs/decisions/0045-api-keys-and-typed-client.md).
 */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import {
  apiKeyCallListSchema,
  apiKeyCallsQuerySchema,
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyIdParamSchema,
  apiKeyListSchema,
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
    summary: "The account's API keys.",
    response: apiKeyListSchema,
  }),
  createApiKey: defineRoute({
    operationId: 'createApiKey',
    method: 'POST',
    path: base,
    capability: 'api-keys',
    file: 'post-api-key',
    access: 'admin',
    summary: 'Creates an API key: the key is answered once.',
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
    summary: 'Revokes an API key: it answers 401 from then on.',
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
    summary: "An API key's calls, newest first.",
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
    summary: 'This OpenAPI document.',
    response: openApiDocumentSchema,
  }),
};
