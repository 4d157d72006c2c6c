/**
 * Every successful answer of the API black-box tests is checked against its route's response
 * schema (shared/routes.ts). `apiFetch` and `call` (test/support/http.ts) find the route by method
 * and path as the embedded server does, and parse the whole answer, `{ success: true, data,
 * message? }`, with `data` checked by the route's `response`. An answer that leaves it fails the
 * test that made the request.
 *
 * The check is stricter than the schemas themselves. `z.object()` strips fields it does not name,
 * so the browser would never notice a handler answering a field the contract lacks (a leaked
 * record attribute, say); `strictVariant` turns each such object into one that refuses unknown
 * fields, at any depth. An object that says it keeps other fields (`z.looseObject`, or any other
 * catchall) keeps its catchall: there the contract allows them. Types, formats, `null` and
 * refinements are the schema's own.
 */
import { z } from 'zod';
import { compileRoutes, matchRoute } from '../../infra/local/api-event';
import { routeKey, routeList, type RouteDef } from '../../shared/routes';

const compiled = compileRoutes(routeList);

/** The manifest route a request goes to, as the embedded server matches it. */
export function routeFor(method: string, url: string | URL): RouteDef | undefined {
  const path = new URL(url, 'http://localhost').pathname;
  return matchRoute(compiled, method.toUpperCase(), path)?.compiled.route;
}

type AnyDef = z.core.$ZodTypeDef & Record<string, unknown>;
const strictCache = new WeakMap<z.ZodType, z.ZodType>();

/** The schema with every object that strips unknown fields made to refuse them instead, at any depth. */
export function strictVariant(schema: z.ZodType): z.ZodType {
  const cached = strictCache.get(schema);
  if (cached) return cached;
  const def = schema._zod.def as AnyDef;
  const s = (inner: unknown): z.ZodType => strictVariant(inner as z.ZodType);
  const like = (changes: Record<string, unknown>): z.ZodType => schema.clone({ ...def, ...changes } as z.core.$ZodTypeDef);
  let out: z.ZodType;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def['shape'] as Record<string, unknown>).map(([key, field]) => [key, s(field)]));
      const catchall = def['catchall'];
      out = like({ shape, catchall: catchall === undefined ? z.never() : s(catchall) });
      break;
    }
    case 'array':
      out = like({ element: s(def['element']) });
      break;
    case 'union':
      out = like({ options: (def['options'] as unknown[]).map(s) });
      break;
    case 'pipe':
      out = like({ in: s(def['in']), out: s(def['out']) });
      break;
    case 'record':
      out = like({ valueType: s(def['valueType']) });
      break;
    case 'tuple':
      out = like({ items: (def['items'] as unknown[]).map(s), rest: def['rest'] ? s(def['rest']) : def['rest'] });
      break;
    case 'lazy': {
      const getter = def['getter'] as () => unknown;
      out = like({ getter: () => s(getter()) });
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      out = like({ innerType: s(def['innerType']) });
      break;
    // An intersection's halves each name only part of the fields, so neither may refuse the rest.
    default:
      out = schema;
  }
  strictCache.set(schema, out);
  return out;
}

/** The whole successful answer of a route: the success envelope around its strict response schema. */
export function answerSchema(route: RouteDef): z.ZodType {
  // A redirecting route has no success body: any 2xx answer of it is outside its contract.
  if (route.redirects) return z.never();
  if (!route.response) throw new Error(`${routeKey(route)} has no response schema in shared/routes.ts`);
  return z.strictObject({ success: z.literal(true), data: strictVariant(route.response), message: z.string().optional() });
}

export class AnswerOutsideSchemaError extends Error {
  override name = 'AnswerOutsideSchemaError';
}

/**
 * Throws when a successful (2xx) answer to a route of the manifest is not what its response schema
 * allows. Other answers (errors, paths outside the manifest such as /api/health) pass unchecked.
 * `text` is the answer's body as received.
 */
export function checkAnswer(method: string, url: string | URL, status: number, text: string): void {
  if (status < 200 || status > 299) return;
  const route = routeFor(method, url);
  if (!route) return;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AnswerOutsideSchemaError(`${routeKey(route)} answered ${status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  const result = answerSchema(route).safeParse(body);
  if (!result.success) {
    throw new AnswerOutsideSchemaError(
      `${routeKey(route)} answered ${status} outside its response schema:\n${z.prettifyError(result.error)}\nanswer: ${text.slice(0, 2000)}`,
    );
  }
}
