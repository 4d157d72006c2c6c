import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { brandById, brands, DEFAULT_BRAND_ID, type Brand } from '../shared/brands';
import { offlineBasemapArchive } from '../scripts/basemap/offline-basemap';
import { brandHeadTags, writeBrandAppFiles, writeServiceWorker } from './src/pwa/build-plugin';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = fileURLToPath(new URL('./dist', import.meta.url));
const publicDir = fileURLToPath(new URL('./public', import.meta.url));
const serviceWorkerSource = fileURLToPath(new URL('./src/pwa/service-worker.ts', import.meta.url));
const API_TARGET = process.env.API_TARGET ?? 'http://localhost:3000';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * index.html for one brand: the root element names the subsite, with the brand's title, favicon,
 * web app manifest, theme colour and touch icon.
 */
export function brandIndexHtml(html: string, brand: Brand): string {
  const out = html
    .replace(/<div id="root"([^>]*)>/, `<div id="root"$1 data-subsite="${brand.id}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(brand.title)}</title>\n    ${brandHeadTags(brand)}`)
    .replace(/(<link rel="icon"[^>]*href=")[^"]*(")/, `$1${brand.icon}$2`);
  if (!out.includes(`data-subsite="${brand.id}"`)) throw new Error('brand index.html: no <div id="root"> in index.html');
  return out;
}

/**
 * After the build, writes `dist/brands/<n>/index.html` for every brand. The CloudFront Function
 * (and the embedded runtime) serve the one that matches the host name, so the first paint already
 * has the right title and favicon and the app reads the subsite from the root element. Then each
 * brand's manifest and icons, and last the service worker, whose precache list covers them all
 * (web/src/pwa/build-plugin.ts).
 */
function brandPages(): Plugin {
  return {
    name: 'brand-index-pages',
    apply: 'build',
    async closeBundle() {
      const html = await readFile(`${outDir}/index.html`, 'utf8');
      for (const brand of brands) {
        const dir = `${outDir}/brands/${brand.id}`;
        await mkdir(dir, { recursive: true });
        await writeFile(`${dir}/index.html`, brandIndexHtml(html, brand));
      }
      // The page of a host that names no brand (the embedded runtime's default) is the default brand's.
      await writeFile(`${outDir}/index.html`, html.replace(/(<title>[^<]*<\/title>)/, `$1\n    ${brandHeadTags(brandById(DEFAULT_BRAND_ID))}`));
      await writeBrandAppFiles(outDir, publicDir);
      await writeServiceWorker(outDir, serviceWorkerSource);
    },
  };
}

/** The module whose default export is the URL of the offline base map's archive (web/src/features/map/offline-basemap.ts). */
const OFFLINE_BASEMAP_MODULE = 'virtual:offline-basemap';
const OFFLINE_BASEMAP_DEV_PATH = '/@offline-basemap/natural-earth.pmtiles';

/**
 * The offline base map's tiles (scripts/basemap/offline-basemap.ts), made from the `world-atlas`
 * package once per build: a hashed asset of the build, a path the dev server answers from memory.
 */
function offlineBasemap(): Plugin {
  const resolvedId = `\0${OFFLINE_BASEMAP_MODULE}`;
  let archive: Uint8Array | undefined;
  const bytes = () => (archive ??= offlineBasemapArchive());
  let serving = false;
  return {
    name: 'offline-basemap',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    configureServer(server) {
      server.middlewares.use(OFFLINE_BASEMAP_DEV_PATH, (_req, res) => {
        res.setHeader('content-type', 'application/vnd.pmtiles');
        res.end(bytes());
      });
    },
    resolveId(id) {
      return id === OFFLINE_BASEMAP_MODULE ? resolvedId : undefined;
    },
    load(id) {
      if (id !== resolvedId) return undefined;
      if (serving) return `export default ${JSON.stringify(OFFLINE_BASEMAP_DEV_PATH)};`;
      const ref = this.emitFile({ type: 'asset', name: 'natural-earth.pmtiles', source: bytes() });
      return `export default import.meta.ROLLUP_FILE_URL_${ref};`;
    },
  };
}

export default defineConfig({
  root,
  publicDir: 'public',
  plugins: [react(), brandPages(), offlineBasemap()],
  resolve: {
    // Every zod import of the web app (shared schemas included) gets zod configured for the
    // Content-Security-Policy first (web/src/app/zod-jitless.ts).
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/app/zod-jitless.ts', import.meta.url)) }],
  },
  build: {
    outDir,
    emptyOutDir: true,
    // scripts/size.ts reads .vite/manifest.json to size each route's JavaScript.
    manifest: true,
    target: 'es2022',
    // Maps are written for error tracking but not referenced from the served files.
    sourcemap: 'hidden',
    // Library code is grouped by the set of routes that use it. The login route's libraries (those
    // the entry imports statically: rolldown's `$initial` tag) form groups of their own, and of those,
    // groups under 20 kB are merged: the default splitting cut the login route's shared code into many
    // tiny chunks, each paying its own gzip and request overhead (2.4 kB of the login budget). The
    // lazy pages' libraries are never merged: a merge picks the "closest" group by the routes that use
    // it, and across the login boundary that welded a small login group to a lazy one, so that adding
    // a lazy page (the trip log's) put 55 kB of dialog and combobox code on the login route.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'shared', test: /node_modules/, tags: ['$initial'], entriesAware: true, entriesAwareMergeThreshold: 20_000, priority: 2 },
            { name: 'lazy', test: /node_modules/, entriesAware: true, entriesAwareMergeThreshold: 0, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/mqtt': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
  preview: {
    port: 4173,
  },
});
