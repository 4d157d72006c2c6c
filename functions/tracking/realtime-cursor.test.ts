import { describe, expect, it } from 'vitest';
import { ValidationError } from '../platform/errors';
import { encodePageCursor } from '../platform/page-cursor';
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
    const cursor = encodeCursor(alice, { after: IMEI });
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(cursor).not.toContain(IMEI);
    expect(decodeCursor(alice, cursor)).toEqual({ after: IMEI });
  });

  it("gives back a segment's end with its start", () => {
    const segment = { after: '356938060000000', until: '356938060024999' };
    expect(decodeCursor(alice, encodeCursor(alice, segment))).toEqual(segment);
  });

  it("refuses another user's or another account's cursor", () => {
    const cursor = encodeCursor(alice, { after: IMEI });
    expect(refusal(() => decodeCursor({ ...alice, userId: 'user-2' }, cursor))).toEqual({ cursor: ['InvalidCursor'] });
    expect(refusal(() => decodeCursor({ ...alice, accountId: 'acc-2' }, cursor))).toEqual({ cursor: ['InvalidCursor'] });
  });

  it('refuses a cursor whose IMEI or digest was changed, a cut one and one that is no cursor', () => {
    const cursor = encodeCursor(alice, { after: IMEI });
    const [version, , check] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [number, string[], string];
    const made = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const sealed = (at: string[]) => encodePageCursor(['realtime', alice.accountId, alice.userId], at);
    for (const bad of [made([version, ['356938035643817'], check]), made([version, [IMEI], 'x'.repeat(16)]), cursor.slice(0, -3), `${cursor}AA`, 'abc', sealed(['12345']), sealed([IMEI, IMEI]), sealed([IMEI, '356938035643800']), sealed([IMEI, '12345']), sealed([IMEI, '356938035643899', IMEI])]) {
      expect(refusal(() => decodeCursor(alice, bad)), bad).toEqual({ cursor: ['InvalidCursor'] });
    }
  });
});
