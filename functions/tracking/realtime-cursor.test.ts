import { describe, expect, it } from 'vitest';
import { ValidationError } from '../platform/errors';
import { decodeCursor, encodeCursor } from './realtime-cursor';

const alice = { accountId: 'acc-1', userId: 'user-1' };
const IMEI = '356938035643809';

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof ValidationError ? error.fieldErrors : error;
  }
  return 'accepted';
}

describe('the realtime units cursor', () => {
  it('gives back the IMEI it was made from, to the caller it was made for', () => {
    const cursor = encodeCursor(alice, IMEI);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(cursor).not.toContain(IMEI);
    expect(decodeCursor(alice, cursor)).toBe(IMEI);
  });

  it("refuses another user's or another account's cursor", () => {
    const cursor = encodeCursor(alice, IMEI);
    expect(refusal(() => decodeCursor({ ...alice, userId: 'user-2' }, cursor))).toEqual({ cursor: ['InvalidCursor'] });
    expect(refusal(() => decodeCursor({ ...alice, accountId: 'acc-2' }, cursor))).toEqual({ cursor: ['InvalidCursor'] });
  });

  it('refuses a cursor whose IMEI or digest was changed, a cut one and one that is no cursor', () => {
    const [version, , check] = Buffer.from(encodeCursor(alice, IMEI), 'base64url').toString().split('.');
    const other = Buffer.from(`${version}.356938035643817.${check}`).toString('base64url');
    const cursor = encodeCursor(alice, IMEI);
    for (const bad of [other, cursor.slice(0, -3), `${cursor}AA`, 'abc', Buffer.from(`2.${IMEI}.${check}`).toString('base64url'), Buffer.from(`1.12345.${check}`).toString('base64url')]) {
      expect(refusal(() => decodeCursor(alice, bad)), bad).toEqual({ cursor: ['InvalidCursor'] });
    }
  });
});
