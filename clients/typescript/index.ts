/**
 * The portal's typed API client: openapi-fetch over the types openapi-typescript generated from
 * the OpenAPI document (schema.ts, `npm run client:generate`). Every answer is the API's envelope,
 * `{ success, data }`; the paths, parameters and bodies are checked by TypeScript.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';
export type PortalClient = Client<paths>;

export interface PortalClientOptions {
  /** Where the portal is, e.g. https://portal.example.com (the API is under /api/v1). */
  baseUrl: string;
  /** An API key (tpk_...) created under Administration > API keys. */
  apiKey: string;
  /** The IANA zone of local days and times (the TimeZone header; default Europe/Stockholm). */
  timeZone?: string;
  fetch?: typeof globalThis.fetch;
}

export function createPortalClient(options: PortalClientOptions): PortalClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}`, ...(options.timeZone ? { TimeZone: options.timeZone } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
