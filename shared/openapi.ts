/**
 * The OpenAPI 3.1 document, generated from the route manifest and its zod schemas (zod's own
 * JSON Schema output), so the published contract cannot drift from what the handlers validate.
 */
import { z } from 'zod';
import { featureRequirements } from './features';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_TTL_SECONDS, idempotentOperations } from './idempotency';
import { routeList, type RouteDef } from './routes';
import { validationErrorSchema } from './schemas/common';
import { API_KEY_RATE_LIMIT, API_KEY_RATE_WINDOW_SECONDS, apiKeyMessageKeys, apiKeyScopes } from './schemas/api-keys';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json['$schema'];
  return json;
}

function parametersOf(route: RouteDef): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input');
    const props = (json['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json['required'] as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop });
    }
  }
  for (const name of route.path.match(/\{(\w+)\}/g) ?? []) {
    const bare = name.slice(1, -1);
    if (!out.some((p) => (p as { name: string }).name === bare)) {
      out.push({ name: bare, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  out.push({ name: 'TimeZone', in: 'header', required: false, schema: { type: 'string', default: 'Europe/Stockholm' } });
  if (idempotentOperations.has(route.operationId)) {
    out.push({
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      description: `Applied once per key and account; a repeat of the same request within ${IDEMPOTENCY_TTL_SECONDS / 3600} h gets the first answer (Idempotent-Replayed: true), another request with the key 422 IdempotencyKeyReused, one while the first runs 409 IdempotencyKeyInProgress.`,
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,128}$' },
    });
  }
  return out;
}

/** Why the middleware answers 403 on a route, with the message key: the role it needs, and its account feature. */
function refusalsOf(route: RouteDef): { key: string; reason: string }[] {
  const out: { key: string; reason: string }[] = [];
  if (route.access === 'admin') out.push({ key: 'NoAccessToAdministratorPages', reason: 'the caller is not an account admin' });
  if (route.access === 'support') out.push({ key: 'NoAccessToSupportPages', reason: 'the caller is not support staff' });
  if (route.feature) {
    const feature = featureRequirements[route.feature];
    out.push({ key: feature.deniedKey, reason: `the account does not have ${feature.description} (feature ${route.feature})` });
  }
  if (route.access !== 'public') {
    out.push(
      route.apiKeyScope
        ? { key: apiKeyMessageKeys.ApiKeyScopeMissing, reason: `the caller is an API key without the scope ${route.apiKeyScope}` }
        : { key: apiKeyMessageKeys.ApiKeyNotAllowed, reason: 'the caller is an API key (this route is not open to API keys)' },
    );
  }
  return out;
}

export function openApiDocument(routes: readonly RouteDef[] = routeList, options: { embedded?: boolean } = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.embeddedOnly && !options.embedded) continue;
    const ok = route.redirects
      ? { '302': { description: 'Found: the Location header is where the file is, for a short while', headers: { Location: { schema: { type: 'string' } } } } }
      : {
          '200': {
            description: 'Success',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['success', 'data'],
                  properties: {
                    success: { const: true },
                    data: route.response ? schemaOf(route.response, 'output') : {},
                    message: { type: 'string' },
                  },
                },
              },
            },
          },
        };
    const responses: Record<string, unknown> = {
      ...ok,
      '422': { description: 'Validation failed', content: { 'application/json': { schema: schemaOf(validationErrorSchema, 'output') } } },
    };
    if (route.access !== 'public') {
      responses['401'] = { description: 'Unauthenticated.' };
      const refusals = refusalsOf(route);
      if (refusals.length) {
        const keys = refusals.map((r) => r.key);
        const key = keys.length === 1 ? { const: keys[0] } : { enum: keys };
        responses['403'] = {
          description: `Not allowed: ${refusals.map((r) => `${r.reason}, ${r.key}`).join('; or ')}`,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['success', 'message', 'errors'], properties: { success: { const: false }, message: key, errors: key } },
            },
          },
        };
      }
    }
    if (route.apiKeyScope) {
      responses['429'] = {
        description: `An API key over its rate limit (${API_KEY_RATE_LIMIT} calls per ${API_KEY_RATE_WINDOW_SECONDS} s), TooManyRequests; the retry-after header says after how many seconds`,
      };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.capability],
      ...(route.access === 'public' ? { security: [] } : {}),
      // A login's token, or an API key holding the route's scope (OpenAPI 3.1 names roles of any scheme).
      ...(route.apiKeyScope ? { security: [{ bearer: [] }, { apiKey: [route.apiKeyScope] }] } : {}),
      parameters: parametersOf(route),
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } } }
        : {}),
      responses,
      'x-access': route.access,
      ...(route.feature ? { 'x-feature': route.feature } : {}),
      ...(route.apiKeyScope ? { 'x-api-key-scope': route.apiKeyScope } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tracking portal API',
      version: '1',
      description: 'Generated from the route manifest (shared/routes.ts). Errors: 422 `{ success:false, message, errors: { field: [key] } }`, 401 `{ message: "Unauthenticated." }`.',
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "A login's access token (POST /api/v1/login)." },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: `An account's API key (tpk_..., created by an account admin under /api/v1/administration/api-keys), sent as \`Authorization: Bearer <key>\`. It opens only the operations whose x-api-key-scope it holds (scopes: ${apiKeyScopes.join(', ')}); any other answers 403.`,
        },
      },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
