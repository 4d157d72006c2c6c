import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { retryDelayMs, RETRY_CAP_MS, shouldPause, WEBHOOK_MAX_ATTEMPTS } from './backoff';
import { deliveryIdOf } from './delivery-message';
import { newWebhookSecret, signWebhook, verifyWebhookSignature } from './signing';

describe('webhook signatures', () => {
  it('is v1= and the hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret', () => {
    const secret = newWebhookSecret();
    const body = '{"id":"wd_1","type":"alarm"}';
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(signWebhook(secret, 1_700_000_000, body)).toBe(`v1=${expected}`);
  });

  it('verifies its own signature and refuses another body, secret or a stale timestamp', () => {
    const secret = newWebhookSecret();
    const body = '{"a":1}';
    const signature = signWebhook(secret, 1_700_000_000, body);
    expect(verifyWebhookSignature(secret, { timestamp: '1700000000', signature }, body, 1_700_000_010)).toBe(true);
    expect(verifyWebhookSignature(secret, { timestamp: '1700000000', signature }, '{"a":2}', 1_700_000_010)).toBe(false);
    expect(verifyWebhookSignature(newWebhookSecret(), { timestamp: '1700000000', signature }, body, 1_700_000_010)).toBe(false);
    expect(verifyWebhookSignature(secret, { timestamp: '1700000000', signature }, body, 1_700_001_000)).toBe(false);
  });

  it('makes secrets of 32 random bytes', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe('delivery ids', () => {
  it('are the same for the same subscription, type and source, and differ otherwise', () => {
    expect(deliveryIdOf('wh_1', 'alarm', 'event:1')).toBe(deliveryIdOf('wh_1', 'alarm', 'event:1'));
    expect(deliveryIdOf('wh_1', 'alarm', 'event:1')).not.toBe(deliveryIdOf('wh_2', 'alarm', 'event:1'));
    expect(deliveryIdOf('wh_1', 'alarm', 'event:1')).not.toBe(deliveryIdOf('wh_1', 'geofenceEnter', 'event:1'));
  });
});

describe('the retry schedule', () => {
  it('grows five-fold from 10 s with ±25 % jitter, capped at 4 hours', () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(10_000);
    expect(retryDelayMs(2, () => 0.5)).toBe(50_000);
    expect(retryDelayMs(3, () => 0.5)).toBe(250_000);
    expect(retryDelayMs(1, () => 0)).toBe(7_500);
    expect(retryDelayMs(1, () => 0.999999)).toBeCloseTo(12_500, -1);
    expect(retryDelayMs(WEBHOOK_MAX_ATTEMPTS - 1, () => 0.5)).toBe(RETRY_CAP_MS);
  });

  it('pauses after 5 failed deliveries in a row or 24 hours of failing', () => {
    expect(shouldPause(4, null, 0)).toBe(false);
    expect(shouldPause(5, null, 0)).toBe(true);
    expect(shouldPause(1, 0, 24 * 3_600_000 - 1)).toBe(false);
    expect(shouldPause(1, 0, 24 * 3_600_000)).toBe(true);
  });
});
