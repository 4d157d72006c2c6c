import type { DeviceCommand, DeviceGateway } from '../../ports';
import { encodeDeviceCommand, type DeviceProtocol } from '../device-encoding';
import { localBroker } from './local-broker';

/** Commands on the local broker, in the same topics and bytes as on IoT Core. */
export function createLocalDeviceGateway(): DeviceGateway {
  return {
    async send(imei: string, command: DeviceCommand, protocol: DeviceProtocol) {
      const { topic, payload, qos } = encodeDeviceCommand(imei, command, protocol);
      await localBroker().publish(topic, payload, qos);
    },
  };
}
