/**
 * The contract test's check of the manifests' handler files: every route, IoT rule and job names
 * a file that exists and exports a function `handler`. The entries come from `manifestHandlers`
 * (infra/stack.ts), the same list whose files the synth requires, so both fail on the same entry;
 * the synth cannot import handler code, so only this check sees an export that is not a function.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
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
