import { describe, expect, it } from 'vitest';
import { EMBEDDED_STACK_NAME, iotRuleName, iotRules, trackerBasicIngestTopics } from './iot-rules';
import {
  TopicError,
  basicIngestTopic,
  commandTopic,
  liveAccountFilter,
  liveTopicsOf,
  liveUnitTopic,
  liveUserFilter,
  liveUserTopic,
  parseBasicIngestTopic,
  parseTrackerTopic,
  ruleTopicOf,
  telemetryTopic,
  trackerMayPublish,
  trackerMaySubscribe,
  trackerTopic,
} from './mqtt-topics';

const IMEI = '356307042441013';
const OTHER = '356938031000004';

describe('MQTT topics', () => {
  it('builds the topics of docs/api.md', () => {
    expect(liveUnitTopic('acc-1', IMEI)).toBe(`live/acc-1/units/${IMEI}`);
    expect(liveAccountFilter('acc-1')).toBe('live/acc-1/units/+');
    expect(liveUserTopic('acc-1', 'u-1', IMEI)).toBe(`live/acc-1/users/u-1/units/${IMEI}`);
    expect(liveUserFilter('acc-1', 'u-1')).toBe('live/acc-1/users/u-1/units/+');
    expect(commandTopic('native', IMEI)).toBe(`trackers/${IMEI}/commands`);
    expect(commandTopic('teltonika', IMEI)).toBe(`${IMEI}/commands`);
    expect(telemetryTopic('native', IMEI)).toBe(`trackers/${IMEI}/telemetry`);
    expect(telemetryTopic('teltonika', IMEI)).toBe(`${IMEI}/data`);
    expect(trackerTopic('ack', IMEI)).toBe(`trackers/${IMEI}/ack`);
  });

  it('refuses parts that would address other topics', () => {
    expect(() => liveUnitTopic('acc/other', IMEI)).toThrow(TopicError);
    expect(() => liveUnitTopic('+', IMEI)).toThrow(TopicError);
    expect(() => liveUnitTopic('#', IMEI)).toThrow(TopicError);
    expect(() => liveUnitTopic('', IMEI)).toThrow(TopicError);
    expect(() => liveUserTopic('acc', 'u/1', IMEI)).toThrow(TopicError);
    expect(() => commandTopic('native', '35630704244101')).toThrow(TopicError);
    expect(() => commandTopic('teltonika', `${IMEI}/x`)).toThrow(TopicError);
  });

  it('sends a unit live to its account and to each ordinary user granted it, once each', () => {
    expect(liveTopicsOf({ accountId: 'a', imei: IMEI, viewers: ['u1', 'u2', 'u1'] })).toEqual([
      `live/a/units/${IMEI}`,
      `live/a/users/u1/units/${IMEI}`,
      `live/a/users/u2/units/${IMEI}`,
    ]);
  });

  it('derives the IoT rules from the tracker topics', () => {
    const byName = Object.fromEntries(iotRules.map((r) => [r.name, r]));
    expect(byName['trackerTelemetry']).toMatchObject({ topicFilter: 'trackers/+/telemetry', imeiLevel: 2 });
    expect(byName['teltonikaData']).toMatchObject({ topicFilter: '+/data', imeiLevel: 1 });
    expect(byName['commandAck']).toMatchObject({ topicFilter: 'trackers/+/ack', imeiLevel: 2 });
  });

  it('lets a tracker publish and subscribe only on its own topics', () => {
    expect(trackerMayPublish(IMEI, `trackers/${IMEI}/telemetry`)).toBe(true);
    expect(trackerMayPublish(IMEI, `trackers/${IMEI}/ack`)).toBe(true);
    expect(trackerMayPublish(IMEI, `${IMEI}/data`)).toBe(true);
    expect(trackerMayPublish(IMEI, `trackers/${OTHER}/telemetry`)).toBe(false);
    expect(trackerMayPublish(IMEI, `trackers/${IMEI}/commands`)).toBe(false);
    expect(trackerMayPublish(IMEI, `live/a/units/${IMEI}`)).toBe(false);
    expect(trackerMaySubscribe(IMEI, `trackers/${IMEI}/commands`)).toBe(true);
    expect(trackerMaySubscribe(IMEI, `${IMEI}/commands`)).toBe(true);
    expect(trackerMaySubscribe(IMEI, `trackers/+/commands`)).toBe(false);
    expect(trackerMaySubscribe(IMEI, `${OTHER}/commands`)).toBe(false);
    expect(trackerMaySubscribe(IMEI, `trackers/${IMEI}/telemetry`)).toBe(false);
    expect(parseTrackerTopic('trackers/12/telemetry')).toBeNull();
  });

  describe('Basic Ingest', () => {
    it('prefixes a topic with the rule it goes to, and splits it again', () => {
      const topic = basicIngestTopic('TrackingPortal_trackerTelemetry', `trackers/${IMEI}/telemetry`);
      expect(topic).toBe(`$aws/rules/TrackingPortal_trackerTelemetry/trackers/${IMEI}/telemetry`);
      expect(parseBasicIngestTopic(topic)).toEqual({ ruleName: 'TrackingPortal_trackerTelemetry', topic: `trackers/${IMEI}/telemetry` });
      expect(ruleTopicOf(topic)).toBe(`trackers/${IMEI}/telemetry`);
      expect(ruleTopicOf(`trackers/${IMEI}/telemetry`)).toBe(`trackers/${IMEI}/telemetry`);
    });

    it('is no Basic Ingest topic without a valid rule name and a topic after it', () => {
      for (const topic of [
        `trackers/${IMEI}/telemetry`,
        '$aws/rules/',
        '$aws/rules/Rule',
        '$aws/rules/Rule/',
        `$aws/rules/Rule-1/trackers/${IMEI}/telemetry`,
        `$aws/rules//trackers/${IMEI}/telemetry`,
        `$aws/things/${IMEI}/shadow/update`,
        `$AWS/rules/Rule/trackers/${IMEI}/telemetry`,
      ]) {
        expect(parseBasicIngestTopic(topic), topic).toBeNull();
        expect(ruleTopicOf(topic), topic).toBe(topic);
      }
      expect(() => basicIngestTopic('Tracking-Portal', 'x')).toThrow(TopicError);
      expect(() => basicIngestTopic('a'.repeat(129), 'x')).toThrow(TopicError);
    });

    it("gives a tracker one topic per rule on its upward topics, named after the stack's rules", () => {
      expect(trackerBasicIngestTopics('TrackingPortal-dev', IMEI)).toEqual({
        telemetry: `$aws/rules/TrackingPortal_dev_trackerTelemetry/trackers/${IMEI}/telemetry`,
        ack: `$aws/rules/TrackingPortal_dev_commandAck/trackers/${IMEI}/ack`,
        teltonikaData: `$aws/rules/TrackingPortal_dev_teltonikaData/${IMEI}/data`,
      });
      expect(() => trackerBasicIngestTopics('TrackingPortal', 'not-an-imei')).toThrow(TopicError);
      expect(iotRuleName(EMBEDDED_STACK_NAME, { name: 'trackerTelemetry' })).toBe('TrackingPortal_trackerTelemetry');
    });
  });
});
