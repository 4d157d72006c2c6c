import type { LiveBus, LiveMessage } from '../../ports';
import { liveTopic } from '../topics';
import { localBroker } from './local-broker';

/** Live updates on the local broker; browsers read them over its WebSocket listener. QoS 0 as on AWS. */
export function createLocalLiveBus(): LiveBus {
  return {
    async publish(accountId: string, imei: string, message: LiveMessage) {
      await localBroker().publish(liveTopic(accountId, imei), JSON.stringify(message), 0);
    },
  };
}
