/**
 * Debian's Chromium as the end-to-end tests and the map benchmark start it. Without the
 * background-networking flags Chromium's calls home are refused by this machine's closed network.
 */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const CHROMIUM_BASE_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];
