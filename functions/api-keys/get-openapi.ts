/**
 * GET /api/v1/openapi.json: the OpenAPI document of the deployment serving it (embedded-only routes
 * only in the embedded runtime), built once per cold start from the route manifest.
 */
import { openApiDocument } from '../../shared/openapi';
import { routeList, routes } from '../../shared/routes';
import { getEnv } from '../platform/env';
import { httpHandler } from '../platform/http';

let document: Record<string, unknown> | undefined;

export const handler = httpHandler(routes.getOpenApiDocument, async () => {
  document ??= openApiDocument(routeList, { embedded: getEnv().RUNTIME === 'embedded' });
  return document as { openapi: string; info: { title: string; version: string }; paths: Record<string, Record<string, unknown>> };
});
