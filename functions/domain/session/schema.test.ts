import { describe, expect, it } from 'vitest';
import { CorruptSessionItemError, isCurrentSession, parseSessionItem, sessionItemId } from './schema';

const now = new Date('2026-03-01T12:00:00Z');
const session = { id: sessionItemId('s1'), userId: 'u1', generation: 1, createdAt: '2026-03-01T11:00:00.000Z', expiresAt: now.getTime() / 1000 + 3600 };

describe('the session item', () => {
  it('parses what login writes', () => {
    expect(parseSessionItem(session)).toEqual(session);
  });

  it('parses a session from before generations, which counts as generation 0', () => {
    const { generation: _generation, ...legacy } = session;
    const parsed = parseSessionItem(legacy);
    expect(parsed.generation).toBeUndefined();
    expect(isCurrentSession(parsed, { userId: 'u1' }, now)).toBe(true);
    expect(isCurrentSession(parsed, { userId: 'u1', sessionGeneration: 1 }, now)).toBe(false);
  });

  it('names the malformed or missing fields and the item', () => {
    expect(() => parseSessionItem({ ...session, expiresAt: 'soon' })).toThrow(CorruptSessionItemError);
    expect(() => parseSessionItem({ ...session, expiresAt: 'soon' })).toThrow('session item "session#s1" is malformed at expiresAt');
    expect(() => parseSessionItem({ id: 'challenge#x', userId: 'u1', createdAt: '', expiresAt: 1 })).toThrow('malformed at id');
  });
});
