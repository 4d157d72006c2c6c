/**
 * The build's part of the installable app (docs/decisions/0047), run by web/vite.config.ts after
 * the app is bundled and the brand pages are written:
 *
 * - per brand, `dist/brands/<n>/manifest.webmanifest` (name, short name, theme colour, start
 *   address) and its icons `icon-192.png`, `icon-512.png` (the brand's mark as it is) and
 *   `maskable-192.png`, `maskable-512.png` (the mark shrunk into the maskable safe zone over its
 *   own background colour, full bleed), drawn from `web/public/logos/icon-<n>.svg` with resvg;
 *   each brand's index.html links its own manifest (`brandHeadTags`), so every brand domain
 *   installs as its brand on AWS and in the embedded runtime alike;
 * - `dist/sw.js`: web/src/pwa/service-worker.ts bundled with esbuild, with the precache list of
 *   this build (the shell `/` with a revision over the brand pages, every JavaScript and CSS file
 *   but the map library, the brand marks and icons), each with a revision so a new build replaces
 *   exactly what changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { build } from 'esbuild';
import { brands, type Brand } from '../../../shared/brands';

export const ICON_SIZES = [192, 512] as const;
/** Where the installed app opens: the driver's trips. */
export const START_URL = '/user/my-trips';

export function manifestPath(brand: Pick<Brand, 'id'>): string {
  return `/brands/${brand.id}/manifest.webmanifest`;
}

/** The tags each brand's index.html gets in its head: its manifest, theme colour and touch icon. */
export function brandHeadTags(brand: Brand): string {
  return [
    `<link rel="manifest" href="${manifestPath(brand)}" />`,
    `<meta name="theme-color" content="${brand.primary}" />`,
    `<link rel="apple-touch-icon" href="/brands/${brand.id}/maskable-192.png" />`,
  ].join('\n    ');
}

export function webManifest(brand: Brand): Record<string, unknown> {
  const icon = (kind: 'icon' | 'maskable', size: number) => ({
    src: `/brands/${brand.id}/${kind}-${size}.png`,
    sizes: `${size}x${size}`,
    type: 'image/png',
    purpose: kind === 'icon' ? 'any' : 'maskable',
  });
  return {
    id: '/',
    name: brand.title,
    short_name: brand.title,
    start_url: START_URL,
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    background_color: '#ffffff',
    theme_color: brand.primary,
    icons: [...ICON_SIZES.map((size) => icon('icon', size)), ...ICON_SIZES.map((size) => icon('maskable', size))],
  };
}

/** The mark's own background: the first fill colour of the SVG (its badge), else the brand colour. */
function markBackground(svg: string, brand: Brand): string {
  return /fill="(#[0-9a-fA-F]{3,8})"/.exec(svg)?.[1] ?? brand.primary;
}

/**
 * A maskable icon: the whole canvas in the mark's background colour, the mark at 72 % in the
 * middle, so its drawing stays inside the safe zone (the centre circle of 80 %) of any mask.
 */
export function maskableSvg(markSvg: string, brand: Brand): string {
  const open = /<svg[^>]*viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"[^>]*>/.exec(markSvg);
  if (!open) throw new Error(`brand ${brand.id}: the mark has no viewBox`);
  const [w, h] = [Number(open[1]), Number(open[2])];
  const inner = markSvg.slice(open.index + open[0].length).replace(/<\/svg>\s*$/, '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<rect width="${w}" height="${h}" fill="${markBackground(markSvg, brand)}"/>` +
    `<g transform="translate(${w / 2} ${h / 2}) scale(0.72) translate(${-w / 2} ${-h / 2})">${inner}</g></svg>`
  );
}

export function renderPng(svg: string, size: number): Buffer {
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng());
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const revisionOf = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** Files of the build the service worker precaches: JavaScript and CSS (not the map library, which is useless without tiles), marks and icons. */
export function precacheable(path: string): boolean {
  if (path.startsWith('assets/')) return /\.(js|css)$/.test(path) && !/maplibre/.test(path);
  return /^logos\/.+\.svg$/.test(path) || /^brands\/\d+\/(icon|maskable)-\d+\.png$/.test(path);
}

/** The precache list: every precacheable file by its address with a content revision, and the shell. */
export function precacheEntries(outDir: string): Array<{ url: string; revision: string }> {
  const entries: Array<{ url: string; revision: string }> = [];
  const shell = createHash('sha256');
  for (const file of filesUnder(outDir).sort()) {
    const path = relative(outDir, file).split(sep).join('/');
    if (/^brands\/\d+\/index\.html$/.test(path) || path === 'index.html') shell.update(path).update(readFileSync(file));
    if (precacheable(path)) entries.push({ url: `/${path}`, revision: revisionOf(readFileSync(file)) });
  }
  entries.push({ url: '/', revision: shell.digest('hex').slice(0, 16) });
  return entries;
}

/** Per brand: the manifest and the icons, into `dist/brands/<n>/`. */
export async function writeBrandAppFiles(outDir: string, publicDir: string): Promise<void> {
  for (const brand of brands) {
    const dir = join(outDir, 'brands', String(brand.id));
    await mkdir(dir, { recursive: true });
    const mark = await readFile(join(publicDir, brand.icon), 'utf8');
    for (const size of ICON_SIZES) {
      await writeFile(join(dir, `icon-${size}.png`), renderPng(mark, size));
      await writeFile(join(dir, `maskable-${size}.png`), renderPng(maskableSvg(mark, brand), size));
    }
    await writeFile(join(dir, 'manifest.webmanifest'), `${JSON.stringify(webManifest(brand), null, 2)}\n`);
  }
}

/** Bundles the service worker with this build's precache list into `dist/sw.js`. */
export async function writeServiceWorker(outDir: string, source: string): Promise<void> {
  const manifest = JSON.stringify(precacheEntries(outDir));
  await build({
    entryPoints: [source],
    outfile: join(outDir, 'sw.js'),
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"', 'self.__WB_MANIFEST': manifest },
  });
}
