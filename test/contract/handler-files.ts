/**
 * The contract test's check of the manifests' handler files: every route, IoT rule and job names
 * a file that exists and exports a function `handler`. The entries come from `manifestHandlers`
 * (infra/stack.ts), the same list whose files the synth requires, so both fail on the same entry;
 * the synth cannot import handler code, so only this check sees an export that is not a function.
 * A route's file must also serve that route: its handler is built by httpHandler
 * (functions/platform/http.ts) from the route's own entry, and no two routes name one file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RouteDef } from '../../shared/route-def';
import { handlerPath, routeKey } from '../../shared/routes';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { manifestHandlers, type HandlerManifests, type ManifestHandler } from '../../infra/stack';

/** What is wrong with one entry's handler file, or undefined. */
export async function handlerFileProblem({ entry, file }: ManifestHandler): Promise<string | undefined> {
  const absolute = path.isAbsolute(file) ? file : path.join(REPO_ROOT, file);
  if (!existsSync(absolute)) return `${entry}: ${file} does not exist`;
  const mod = (await import(absolute)) as { handler?: unknown };
  if (typeof mod.handler !== 'function') return `${entry}: ${file} does not export a function \`handler\``;
  return undefined;
}

/** Every problem of the manifests' handler files, one line per entry. */
export async function checkHandlerFiles(manifests: HandlerManifests): Promise<string[]> {
  const problems = await Promise.all(manifestHandlers(manifests).map(handlerFileProblem));
  return problems.filter((p): p is string => p !== undefined);
}

/** Files that serve more than one route on purpose, with those routes' operation ids. None today. */
export const SHARED_HANDLER_FILES: Readonly<Record<string, readonly string[]>> = {};

/** What is wrong with the route a route's handler file serves, or undefined. */
export async function routeHandlerProblem(route: RouteDef): Promise<string | undefined> {
  const file = handlerPath(route);
  const entry = `route ${routeKey(route)} (${route.operationId})`;
  const mod = (await import(path.join(REPO_ROOT, file))) as { handler?: { route?: RouteDef } };
  const served = mod.handler?.route;
  if (!served) return `${entry}: ${file} is not built by httpHandler from a route entry`;
  if (served.operationId !== route.operationId || routeKey(served) !== routeKey(route)) {
    return `${entry}: ${file} serves ${routeKey(served)} (${served.operationId})`;
  }
  return undefined;
}

/** Files named by more than one route and not listed in `intended`, one line each. */
export function sharedHandlerFiles(routes: readonly RouteDef[], intended: Readonly<Record<string, readonly string[]>> = SHARED_HANDLER_FILES): string[] {
  const byFile = new Map<string, string[]>();
  for (const route of routes) byFile.set(handlerPath(route), [...(byFile.get(handlerPath(route)) ?? []), route.operationId]);
  return [...byFile]
    .filter(([file, ops]) => ops.length > 1 && [...ops].sort().join() !== [...(intended[file] ?? [])].sort().join())
    .map(([file, ops]) => `${file} serves ${ops.join(', ')}`);
}
