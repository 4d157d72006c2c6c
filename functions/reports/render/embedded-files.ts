/**
 * The files a report PDF embeds: the Noto Sans font in regular and bold, its `latin` subset (every
 * letter of Swedish and Norwegian, é, ü, the en dash and the ellipsis) and its `latin-ext` subset
 * (ł, š, ő and the other Latin letters, drawn where a text has them), and each brand's square mark
 * (web/public/logos/icon-<id>.svg).
 *
 * Run from source (the embedded runtime, tests) this module reads them from disk. A Lambda bundle
 * has no node_modules and no web/public beside it, so infra/bundling/bundle.ts replaces this
 * module in every bundle by one that imports the same files through esbuild's binary and text
 * loaders: the bytes travel inside the bundle (docs/decisions/0035-report-exports.md). Both keep
 * exactly these exports.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const fontFile = (subset: 'latin' | 'latin-ext', weight: 400 | 700) =>
  readFileSync(require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${weight}-normal.woff`));
const iconFile = (id: number) => readFileSync(new URL(`../../../web/public/logos/icon-${id}.svg`, import.meta.url), 'utf8');

export const FONT_REGULAR: Uint8Array = fontFile('latin', 400);
export const FONT_BOLD: Uint8Array = fontFile('latin', 700);
export const FONT_REGULAR_EXT: Uint8Array = fontFile('latin-ext', 400);
export const FONT_BOLD_EXT: Uint8Array = fontFile('latin-ext', 700);
/** By brand id, 0 to 7. */
export const BRAND_ICONS: readonly string[] = [0, 1, 2, 3, 4, 5, 6, 7].map(iconFile);
