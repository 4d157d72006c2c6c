/**
 * No import cycles among our modules, type-only imports included: eslint's import-x/no-cycle
 * skips `import type` and `import { type X }` and cannot be told otherwise, so the whole graph is
 * checked here (scripts/import-cycles.ts).
 */
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { importCycles, importGraph } from '../../scripts/import-cycles';

describe('the import graph', () => {
  it('has no cycles, type-only and dynamic imports included', () => {
    expect(importCycles(importGraph(REPO_ROOT))).toEqual([]);
  });

  it('finds a cycle that only a type import closes', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(importGraph(REPO_ROOT).get('functions/events/stage.ts')?.has('functions/ingest/transitions.ts')).toBe(true);
  });
});
