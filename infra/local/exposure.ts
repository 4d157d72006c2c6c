/**
 * What `npm start` says when HOST opens the portal beyond this machine. The outbox stays
 * loopback-only whatever HOST says (functions/dev/get-outbox.ts and the HTTP server's page check);
 * everything else is reachable by anyone who reaches the address.
 */
import { isLoopbackAddress } from '../../shared/network';

/** Whether a HOST keeps the listeners to this machine. */
export function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || isLoopbackAddress(host);
}

/** The warning for a HOST that is not loopback, or null. */
export function exposureWarning(host: string, mqttPort: number | string): string | null {
  if (isLoopbackHost(host)) return null;
  return `
  WARNING: HOST=${host} exposes this portal beyond this machine. Anyone who can reach that address
  can use the web app and the API, log in with the demo credentials above, and connect to the MQTT
  broker (port ${mqttPort}, and WebSocket /mqtt) as any tracker. The outbox (/dev/outbox and
  /api/dev/outbox) holds password-reset links and 2FA codes: it stays loopback-only and answers 403
  to every other address. Leave HOST unset to listen on 127.0.0.1 only.
`;
}
