/**
 * The web app's Content-Security-Policy, built here only: the CloudFront response headers policy
 * (infra/constructs/web-hosting.ts) and the embedded HTTP server both send what this returns, so
 * the two runtimes cannot drift apart. docs/decisions/0011-csp-and-loopback-runtime.md says
 * why each source is there.
 *
 * Values may hold CDK tokens (the IoT endpoint is looked up at deploy time), so origins are cut
 * from URLs with string work that leaves `${Token[...]}` intact rather than with `new URL`.
 */

export interface CspSources {
  /**
   * The base map's MapLibre style URL (MAP_STYLE_URL); unset, the offline map needs nothing but
   * 'self'. Only its origin is allowed: nothing is fetched to learn where its tiles live.
   */
  readonly mapStyleUrl?: string | null;
  /**
   * Further origins the style's tiles, glyphs or sprites come from, when they are not the style's
   * own (Amazon Location serves all of them from the style's host, so the stack needs none).
   */
  readonly mapOrigins?: readonly string[];
  /** `wss://host[:port]` (or `ws://` locally) of the live channel's MQTT-over-WebSocket endpoint. */
  readonly liveOrigin: string;
  /**
   * Origins of uploaded files (the pictures bucket's presigned URLs on AWS): the browser uploads
   * to them and shows images from them. The embedded runtime serves files on its own origin.
   */
  readonly fileOrigins?: readonly string[];
}

/** Characters that would end a source or a directive, or quote a keyword. */
const UNSAFE = /[\s;,'"]/;
const ORIGIN = /^((?:https?|wss?):\/\/[^/?#]+)/i;

/** `scheme://host[:port]` of a URL, or throws when the URL has no such start. */
export function originOf(url: string): string {
  const match = ORIGIN.exec(url.trim());
  if (!match?.[1] || UNSAFE.test(match[1]) || match[1].includes('@')) throw new Error(`not an http(s) or ws(s) URL: ${JSON.stringify(url)}`);
  return match[1];
}

function source(value: string): string {
  const origin = originOf(value);
  if (origin !== value.trim().replace(/\/$/, '')) throw new Error(`an origin has no path, query or fragment: ${JSON.stringify(value)}`);
  return origin;
}

export function contentSecurityPolicy(sources: CspSources): string {
  const map = [...(sources.mapStyleUrl ? [originOf(sources.mapStyleUrl)] : []), ...(sources.mapOrigins ?? []).map(source)];
  const live = source(sources.liveOrigin);
  const files = (sources.fileOrigins ?? []).map(source);
  const unique = (list: string[]) => [...new Set(list)];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    // Vite emits module scripts only: no inline script and no eval is needed.
    ['script-src', ["'self'"]],
    // mqtt.js keeps the live channel's keepalive in a worker made from a blob: URL (background tabs
    // throttle the page's timers); MapLibre does the same when its worker file is on another origin.
    // (and the installed app's service worker, /sw.js, which 'self' covers).
    ['worker-src', ["'self'", 'blob:']],
    // The brand's web app manifest (/brands/<n>/manifest.webmanifest), written out though default-src covers it.
    ['manifest-src', ["'self'"]],
    // Mantine injects <style> elements at run time (CSS variables of the theme); see the decision record.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // maplibre-gl.css draws its controls from data: SVGs; MapLibre decodes images through blob: URLs
    // and may load a sprite or raster tile with an <img> from the map's hosts.
    ['img-src', unique(["'self'", 'data:', 'blob:', ...map, ...files])],
    ['font-src', ["'self'"]],
    // blob: is the offline map's GeoJSON, handed to MapLibre's worker by URL. The server names the
    // live channel's host (the IoT endpoint; APP_URL's host locally), which need not be the page's,
    // and older browsers do not let 'self' cover ws: and wss: anyway.
    ['connect-src', unique(["'self'", 'blob:', ...map, live, ...files])],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, list]) => `${name} ${list.join(' ')}`).join('; ');
}
