/**
 * Debian's Chromium as the end-to-end tests and the browser benchmarks start it. Without the
 * background-networking flags Chromium's calls home are refused by this machine's closed network.
 */
import { existsSync } from 'node:fs';

/** The whole browser: what the benchmarks measure, and the tests of what only it has (below). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Debian's `chromium-headless-shell`: the same engine (Blink, V8, the software WebGL) without the
 * whole browser around it. A browser test file drives it with about half the CPU of `chromium
 * --headless` (the new headless mode is the full browser, whose own process was as busy as the
 * page's). What it lacks here: notification permission (always denied), and what My trips keeps
 * in IndexedDB was not found when the page started offline from its service worker; the files
 * that test those start the whole browser (startBrowserApp). Without the package the tests use
 * the whole browser, only slower.
 */
export const HEADLESS_SHELL = process.env['CHROMIUM_HEADLESS_SHELL_PATH'] ?? '/usr/lib/chromium/chromium-headless-shell';

/** The executable of a test's browser: the headless shell where it is installed, unless the whole browser is asked for. */
export function testBrowserPath(kind: 'headless-shell' | 'chromium'): string {
  return kind === 'headless-shell' && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
}

export const CHROMIUM_BASE_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];
