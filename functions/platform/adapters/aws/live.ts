import { PublishCommand, type IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { liveTopicsOf } from '../../../../shared/mqtt-topics';
import type { LiveBus } from '../../ports';

/**
 * Live updates to the browsers through IoT Core: one publish per topic of the unit's audience (its
 * account, and each ordinary user granted it). QoS 0: a lost position is replaced by the next one,
 * and the map reloads the latest state when it reconnects.
 */
export function createIotLiveBus(client: IoTDataPlaneClient): LiveBus {
  return {
    async publish(audience, message) {
      const payload = new TextEncoder().encode(JSON.stringify(message));
      await Promise.all(liveTopicsOf(audience).map((topic) => client.send(new PublishCommand({ topic, qos: 0, payload }))));
    },
  };
}
