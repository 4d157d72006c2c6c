import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildReason, webSourcesHash, writeStamp } from './build-web';

let root: string;
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-web-'));
  write('web/src/main.tsx', 'export const a = 1;');
  write('web/vite.config.ts', 'export default {};');
  write('shared/i18n/en.ts', 'export const en = {};');
  write('package.json', '{}');
  write('package-lock.json', '{}');
  write('functions/x.ts', 'export const x = 1;');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A finished build: dist with its index page and the stamp of the current sources. */
const built = () => {
  write('web/dist/index.html', '<html></html>');
  writeStamp(root, webSourcesHash(root));
};

describe('the web build stamp', () => {
  it('asks for a build without a built app, or with one that has no stamp', () => {
    expect(buildReason(root)).toBe('no built web app');
    write('web/dist/index.html', '<html></html>');
    expect(buildReason(root)).toBe('the built web app has no stamp');
    built();
    expect(buildReason(root)).toBeNull();
  });

  it.each([
    ['a web source', 'web/src/main.tsx', 'export const a = 2;'],
    ['the vite config', 'web/vite.config.ts', 'export default { x: 1 };'],
    ['a shared file', 'shared/i18n/en.ts', 'export const en = { a: 1 };'],
    ['the lock file', 'package-lock.json', '{"v":2}'],
    ['package.json', 'package.json', '{"a":1}'],
    ['a new web file', 'web/src/new.tsx', ''],
  ])('rebuilds when %s changes', (_what, path, text) => {
    built();
    write(path, text);
    expect(buildReason(root)).toBe('its sources changed');
  });

  it('rebuilds when a source is removed or renamed', () => {
    write('web/src/other.tsx', 'x');
    built();
    rmSync(join(root, 'web/src/other.tsx'));
    expect(buildReason(root)).toBe('its sources changed');
    write('web/src/renamed.tsx', 'x');
    expect(buildReason(root)).toBe('its sources changed');
  });

  it('ignores what the build writes and code the web app does not read', () => {
    built();
    write('web/dist/assets/app.js', 'built');
    write('functions/x.ts', 'export const x = 2;');
    expect(buildReason(root)).toBeNull();
  });
});
