/**
 * Which brand's index.html a page request gets. One web build serves all eight brands; each brand
 * has its own `/brands/<n>/index.html` (title, logo, theme), chosen by the host name.
 *
 * This module is the CloudFront Function's source: `brandRouterCode()` (brand-router-code.ts)
 * bundles exactly this file into the function, so the unit tests exercise the deployed logic.
 * It therefore imports nothing and sticks to what the CloudFront JavaScript 2.0 runtime offers
 * (no optional chaining, no spread, no classes, no Node or DOM APIs).
 */

/** Host name (lower case, no port) -> brand 0..7. */
export type BrandDomains = Readonly<Record<string, number>>;

/** The parts of a CloudFront viewer-request event the router reads and writes. */
export interface ViewerRequestEvent {
  request: {
    uri: string;
    headers: Record<string, { value: string } | undefined>;
  };
}

export const DEFAULT_BRAND = 0;
const MAX_BRAND = 7;

function validBrand(value: unknown): value is number {
  return typeof value === 'number' && value % 1 === 0 && value >= 0 && value <= MAX_BRAND;
}

/** The brand configured for a Host header value; unknown hosts get the default brand 0. */
export function brandForHost(host: string | undefined, domains: BrandDomains): number {
  if (!host) return DEFAULT_BRAND;
  let name = host.toLowerCase();
  const colon = name.lastIndexOf(':');
  if (colon > -1 && name.indexOf(']') < colon) name = name.substring(0, colon);
  if (name.charAt(name.length - 1) === '.') name = name.substring(0, name.length - 1);
  const candidates = [name];
  if (name.indexOf('www.') === 0) candidates.push(name.substring(4));
  for (let i = 0; i < candidates.length; i++) {
    const key = candidates[i] as string;
    if (Object.prototype.hasOwnProperty.call(domains, key) && validBrand(domains[key])) return domains[key] as number;
  }
  return DEFAULT_BRAND;
}

/** A file request (`/assets/app-1a2b.js`, `/favicon.ico`) rather than a client-side route. */
export function hasFileExtension(uri: string): boolean {
  const last = uri.substring(uri.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]+$/.test(last) && last.charAt(0) !== '.';
}

/** The object a page request is served from. */
export function brandIndexPath(brand: number): string {
  return '/brands/' + brand + '/index.html';
}

/**
 * The viewer-request handler's logic: page routes (no file extension) become the brand's
 * index.html, everything else passes unchanged. Returns the (mutated) request, as CloudFront wants.
 */
export function routeViewerRequest(event: ViewerRequestEvent, domains: BrandDomains): ViewerRequestEvent['request'] {
  const request = event.request;
  if (!hasFileExtension(request.uri)) {
    const host = request.headers['host'];
    request.uri = brandIndexPath(brandForHost(host ? host.value : undefined, domains));
  }
  return request;
}
