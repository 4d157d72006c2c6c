/**
 * The seam between the handlers and the embedded runtime's MQTT broker. The runtime (infra/local)
 * runs in the same process as the handlers and registers its publish function at boot; the
 * DeviceGateway and LiveBus adapters publish through it. Nothing registered means the broker is
 * not up, which is an error, never a silent drop.
 */
export type LocalPublish = (topic: string, payload: string, qos: 0 | 1) => Promise<void>;

export interface LocalBroker {
  publish: LocalPublish;
}

let registered: LocalPublish | undefined;

export function registerLocalBroker(publish: LocalPublish): void {
  registered = publish;
}

/** For the runtime's shutdown and for tests. */
export function unregisterLocalBroker(): void {
  registered = undefined;
}

export function localBroker(): LocalBroker {
  const publish = registered;
  if (!publish) throw new Error('the local MQTT broker is not running');
  return { publish };
}
