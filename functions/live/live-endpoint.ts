/**
 * Where browsers open the live channel. Embedded: the aedes broker's WebSocket listener at `/mqtt`
 * on the portal's own origin. AWS: IoT Core's data endpoint over WebSocket, naming the custom
 * authorizer in the query string; IoT Core then hands the MQTT CONNECT's username and password
 * (our access token) to that authorizer (AWS IoT Core developer guide, "Connecting to AWS IoT Core
 * by using custom authentication").
 */
import { requireLiveAuthorizerName, type Env } from '../platform/env';

export function liveEndpointUrl(env: Env): string {
  if (env.RUNTIME === 'embedded') {
    const url = new URL('/mqtt', env.APP_URL);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.toString();
  }
  const host = env.IOT_DATA_ENDPOINT.replace(/^\w+:\/\//, '').replace(/\/.*$/, '');
  const query = new URLSearchParams({ 'x-amz-customauthorizer-name': requireLiveAuthorizerName(env) });
  return `wss://${host}/mqtt?${query.toString()}`;
}
