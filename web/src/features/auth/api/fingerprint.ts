/**
 * The trusted-browser fingerprint of spec section 3 (user agent, hardware concurrency, device
 * memory, platform), hashed so the raw values are neither sent nor stored.
 */
export async function deviceFingerprint(): Promise<string | undefined> {
  const nav = navigator as Navigator & { deviceMemory?: number };
  const raw = [nav.userAgent, nav.hardwareConcurrency ?? '', nav.deviceMemory ?? '', nav.platform ?? ''].join('|');
  if (typeof crypto === 'undefined' || !crypto.subtle) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(raw));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
