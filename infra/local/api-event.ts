/**
 * Turns a Node HTTP request into the API Gateway HTTP API (payload 2.0) event and Lambda context
 * the deployed handlers receive, so the embedded runtime runs them unchanged.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { routeKey, type RouteDef } from '../../shared/routes';

export interface CompiledRoute {
  route: RouteDef;
  key: string;
  pattern: RegExp;
  paramNames: string[];
}

export function compileRoutes(routes: readonly RouteDef[]): CompiledRoute[] {
  return routes.map((route) => {
    const paramNames: string[] = [];
    const source = route.path
      .split('/')
      .map((part) => {
        const m = /^\{(\w+)\}$/.exec(part);
        if (!m?.[1]) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        paramNames.push(m[1]);
        return '([^/]+)';
      })
      .join('/');
    return { route, key: routeKey(route), pattern: new RegExp(`^${source}$`), paramNames };
  });
}

export interface RouteMatch {
  compiled: CompiledRoute;
  params: Record<string, string>;
}

/**
 * A path segment decoded as API Gateway hands path parameters to a function: escapes become their
 * UTF-8 text. Never throws: bytes that are not UTF-8 become U+FFFD and a `%` that starts no escape
 * stays, so the handler's validation answers such a value (functions/platform/http.ts).
 */
export function decodePathParameter(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < segment.length; ) {
      const escape = /^%[0-9a-f]{2}/i.exec(segment.slice(i, i + 3));
      if (escape) {
        bytes.push(parseInt(segment.slice(i + 1, i + 3), 16));
        i += 3;
      } else {
        bytes.push(...Buffer.from(String.fromCodePoint(segment.codePointAt(i) ?? 0)));
        i += (segment.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
      }
    }
    return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
  }
}

/**
 * API Gateway answers 404 for an unknown path and for a known path with another method. Where a
 * path fits several routes, the one with the fewest path parameters wins, as API Gateway prefers
 * literal segments (`/reports/exports` over `/reports/{kind}`), whatever the manifest's order.
 */
export function matchRoute(compiled: readonly CompiledRoute[], method: string, path: string): RouteMatch | null {
  let best: { compiled: CompiledRoute; values: RegExpExecArray } | null = null;
  for (const c of compiled) {
    if (c.route.method !== method) continue;
    const m = c.pattern.exec(path);
    if (!m) continue;
    if (!best || c.paramNames.length < best.compiled.paramNames.length) best = { compiled: c, values: m };
  }
  if (!best) return null;
  const { compiled: c, values } = best;
  const params: Record<string, string> = {};
  c.paramNames.forEach((name, i) => {
    params[name] = decodePathParameter(values[i + 1] ?? '');
  });
  return { compiled: c, params };
}

export function toApiEvent(req: IncomingMessage, url: URL, body: Buffer, match: RouteMatch): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') {
      cookies.push(...String(value).split(/;\s*/).filter(Boolean));
      continue;
    }
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || /json|text|xml|x-www-form-urlencoded/i.test(contentType) || contentType === '';
  const now = new Date();
  return {
    version: '2.0',
    routeKey: match.compiled.key,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(match.params).length ? { pathParameters: match.params } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers['host'] ?? 'localhost',
      domainPrefix: (headers['host'] ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.compiled.key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
  };
}

export function lambdaContext(functionName: string, requestId: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
