import { liveTopicsOf } from '../../../../shared/mqtt-topics';
import type { LiveBus } from '../../ports';
import { localBroker } from './local-broker';

/** Live updates on the local broker; browsers read them over its WebSocket listener. QoS 0 as on AWS. */
export function createLocalLiveBus(): LiveBus {
  return {
    async publish(audience, message) {
      const payload = JSON.stringify(message);
      await Promise.all(liveTopicsOf(audience).map((topic) => localBroker().publish(topic, payload, 0)));
    },
  };
}
