import { PublishCommand, type IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import type { LiveBus, LiveMessage } from '../../ports';
import { liveTopic } from '../topics';

/**
 * Live updates to the browsers through IoT Core. QoS 0: a lost position is replaced by the next
 * one, and the map reloads the latest state when it reconnects.
 */
export function createIotLiveBus(client: IoTDataPlaneClient): LiveBus {
  return {
    async publish(accountId: string, imei: string, message: LiveMessage) {
      await client.send(
        new PublishCommand({ topic: liveTopic(accountId, imei), qos: 0, payload: new TextEncoder().encode(JSON.stringify(message)) }),
      );
    },
  };
}
