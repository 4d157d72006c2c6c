import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, mailAddress, mailDomain, parseConfig, stackNameFor } from '../../infra/config';
import { cdkJsonContext } from './helpers';

describe('CDK context', () => {
  it('cdk.json holds the documented defaults', () => {
    const context = cdkJsonContext();
    expect(context).toMatchObject({ brandDomains: {}, stage: expect.any(String), mailFrom: expect.any(String), mapStyle: expect.any(String) });
    expect(() => parseConfig(context)).not.toThrow();
  });

  it('takes defaults for what is not given', () => {
    expect(parseConfig({})).toEqual(DEFAULT_CONFIG);
  });

  it('accepts brand domains as an object or as JSON text (-c on the command line)', () => {
    const expected = { 'portal.example.se': 1, 'track.example.no': 7 };
    expect(parseConfig({ brandDomains: expected }).brandDomains).toEqual(expected);
    expect(parseConfig({ brandDomains: JSON.stringify(expected) }).brandDomains).toEqual(expected);
    expect(parseConfig({ brandDomains: { 'Portal.Example.SE': 2 } }).brandDomains).toEqual({ 'portal.example.se': 2 });
  });

  it('lists every problem at once', () => {
    let message = '';
    try {
      parseConfig({ brandDomains: { 'bad host': 1, 'ok.example.se': 9 }, mailFrom: 'nobody', stage: 'Prod!' });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/not a host name/);
    expect(message).toMatch(/brand 0\.\.7/);
    expect(message).toMatch(/mailFrom/);
    expect(message).toMatch(/stage/);
  });

  it('requires a us-east-1 certificate and brand domains together', () => {
    expect(() => parseConfig({ certificateArn: 'arn:aws:acm:eu-north-1:123456789012:certificate/x' })).toThrow(/us-east-1/);
    expect(() => parseConfig({ certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/x' })).toThrow(/brandDomains is empty/);
  });

  it('reads the sender address and domain', () => {
    expect(mailAddress('Spåra <no-reply@beta.se>')).toBe('no-reply@beta.se');
    expect(mailDomain('Spåra <no-reply@Beta.SE>')).toBe('beta.se');
    expect(mailDomain('alerts@example.com')).toBe('example.com');
    expect(() => mailDomain('example.com')).toThrow(ConfigError);
  });

  it('names stacks by stage', () => {
    expect(stackNameFor('prod')).toBe('TrackingPortal');
    expect(stackNameFor('dev')).toBe('TrackingPortal-dev');
  });

  it('reads the alarm e-mail addresses as a list, JSON text or comma-separated, and the SMS spend threshold', () => {
    expect(parseConfig({}).alarmEmails).toEqual([]);
    expect(parseConfig({ alarmEmails: ['ops@example.se'] }).alarmEmails).toEqual(['ops@example.se']);
    expect(parseConfig({ alarmEmails: '["ops@example.se","oncall@example.no"]' }).alarmEmails).toEqual(['ops@example.se', 'oncall@example.no']);
    expect(parseConfig({ alarmEmails: 'ops@example.se, oncall@example.no,ops@example.se' }).alarmEmails).toEqual(['ops@example.se', 'oncall@example.no']);
    expect(() => parseConfig({ alarmEmails: 'ops@example.se,nobody' })).toThrow(/alarmEmails: "nobody" is not an e-mail address/);
    expect(() => parseConfig({ alarmEmails: { ops: 'ops@example.se' } })).toThrow(/alarmEmails: a list/);
    expect(parseConfig({}).smsSpendAlarmUsd).toBe(DEFAULT_CONFIG.smsSpendAlarmUsd);
    expect(parseConfig({ smsSpendAlarmUsd: '250' }).smsSpendAlarmUsd).toBe(250);
    expect(() => parseConfig({ smsSpendAlarmUsd: -1 })).toThrow(/smsSpendAlarmUsd/);
    // A sender SNS takes, or none; one SNS would refuse fails the synth rather than every SMS.
    expect(parseConfig({}).smsSenderId).toBeUndefined();
    expect(parseConfig({ smsSenderId: 'FleetAlarm' }).smsSenderId).toBe('FleetAlarm');
    expect(parseConfig({ smsSenderId: '+46701234567' }).smsSenderId).toBe('+46701234567');
    for (const refused of ['Fleet Alarm', 'AB', 'FleetAlarmsAB', '0701234567']) expect(() => parseConfig({ smsSenderId: refused }), refused).toThrow(/smsSenderId/);
    // Off unless asked for (billed as custom metrics); cdk.json says the same.
    expect(parseConfig({}).apiRouteMetrics).toBe(false);
    expect(parseConfig({ apiRouteMetrics: 'true' }).apiRouteMetrics).toBe(true);
    expect(parseConfig({ apiRouteMetrics: 'false' }).apiRouteMetrics).toBe(false);
    // The self-hosted street map unless turned off; cdk.json says the same.
    expect(parseConfig({}).selfHostedBasemap).toBe(true);
    expect(cdkJsonContext()['selfHostedBasemap']).toBe(true);
    expect(parseConfig({ selfHostedBasemap: 'false' }).selfHostedBasemap).toBe(false);
    expect(() => parseConfig({ selfHostedBasemap: 'maybe' })).toThrow(/selfHostedBasemap/);
  });
});
