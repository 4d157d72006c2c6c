/**
 * MQTT topic names, once, for both runtimes (IoT Core on AWS, the aedes broker embedded). Each
 * part is checked before it goes into a topic: an id carrying `/`, `+` or `#` would address other
 * topics, and a wildcard in a publish topic is a protocol error.
 */
const IMEI = /^\d{15}$/;
const TOPIC_PART = /^[^/+#]{1,128}$/;

export class TopicError extends Error {
  override name = 'TopicError';
}

function checkImei(imei: string): string {
  if (!IMEI.test(imei)) throw new TopicError(`not an IMEI (15 digits): ${JSON.stringify(imei)}`);
  return imei;
}

function checkPart(what: string, value: string): string {
  if (!TOPIC_PART.test(value) || value.includes('\0')) throw new TopicError(`invalid ${what} for an MQTT topic: ${JSON.stringify(value)}`);
  return value;
}

/** Live positions, events and command states of one unit, for the browsers of its account. */
export function liveTopic(accountId: string, imei: string): string {
  return `live/${checkPart('account id', accountId)}/units/${checkImei(imei)}`;
}

/** Where an admin's browser subscribes to every unit of its account. */
export function liveAccountFilter(accountId: string): string {
  return `live/${checkPart('account id', accountId)}/units/+`;
}

/** Commands to a tracker speaking our native JSON protocol. */
export function nativeCommandTopic(imei: string): string {
  return `trackers/${checkImei(imei)}/commands`;
}

/** Commands to a Teltonika FMB/FMC device in its AWS IoT JSON mode (the device's default topic). */
export function teltonikaCommandTopic(imei: string): string {
  return `${checkImei(imei)}/commands`;
}
