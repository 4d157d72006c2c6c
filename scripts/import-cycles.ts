/**
 * Import cycles among our own modules, type-only and dynamic imports included (eslint's
 * import-x/no-cycle skips type-only imports and has no option to include them). Each cycle is one
 * strongly connected component of the graph of relative imports. `npx tsx scripts/import-cycles.ts`
 * prints them; test/contract/import-cycles.test.ts fails on any.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['shared', 'functions', 'infra', 'web/src', 'test', 'scripts'];
const SKIP = /(^|\/)(node_modules|dist|cdk\.out)(\/|$)/;

function sourceFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (SKIP.test(rel)) return [];
    if (e.isDirectory()) return sourceFiles(root, rel);
    return /\.tsx?$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [rel] : [];
  });
}

function resolveImport(root: string, from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.normalize(path.join(path.dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(path.join(root, candidate))) return candidate;
  }
  return null;
}

/** Every import (static, type-only, dynamic, re-export) of each file onto files of ours. */
export function importGraph(root: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of ROOTS.flatMap((r) => sourceFiles(root, r))) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(root, file), 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolveImport(root, file, ref.fileName);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one module (Tarjan). */
export function importCycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return cycles;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const cycles = importCycles(importGraph(process.cwd()));
  for (const cycle of cycles) console.log(`cycle of ${cycle.length}:\n  ${cycle.join('\n  ')}`);
  process.exitCode = cycles.length ? 1 : 0;
}
