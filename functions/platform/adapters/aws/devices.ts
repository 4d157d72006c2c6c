import { PublishCommand, type IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import type { DeviceCommand, DeviceGateway } from '../../ports';
import { encodeDeviceCommand, type DeviceProtocol } from '../device-encoding';

/** Commands go to the tracker's IoT Core topic; the encoding is shared with the embedded runtime. */
export function createIotDeviceGateway(client: IoTDataPlaneClient): DeviceGateway {
  return {
    async send(imei: string, command: DeviceCommand, protocol: DeviceProtocol) {
      const { topic, payload, qos } = encodeDeviceCommand(imei, command, protocol);
      await client.send(new PublishCommand({ topic, qos, payload: new TextEncoder().encode(payload) }));
    },
  };
}
