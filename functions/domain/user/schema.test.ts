import { describe, expect, it } from 'vitest';
import { CorruptUserItemError, parseUserFields, parseUserItem, sessionGenerationOf } from './schema';

const created = {
  userId: 'u1',
  accountId: 'a1',
  username: 'anna@example.com',
  email: 'anna@example.com',
  firstName: 'Anna',
  lastName: 'Berg',
  lang: 'sv',
  subsiteId: 0,
  isAdmin: true,
  isSupport: false,
  enableTwoFactorAuth: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('the users item', () => {
  it('parses what registration writes and what later features add, id sets as DynamoDB returns them', () => {
    const user = parseUserItem({ ...created, sessionGeneration: 2, departmentIds: new Set(['d1']), unitImeis: ['356307042441013'], featureProfileId: 'p1' });
    expect(user).toMatchObject({ ...created, sessionGeneration: 2, featureProfileId: 'p1' });
    expect(user.departmentIds).toEqual(new Set(['d1']));
    expect(sessionGenerationOf(user)).toBe(2);
  });

  it('parses a legacy user without the optional fields', () => {
    const { createdAt: _createdAt, ...legacy } = created;
    const user = parseUserItem(legacy);
    expect(user.createdAt).toBeUndefined();
    expect(user.unitImeis).toBeUndefined();
    expect(sessionGenerationOf(user)).toBe(0);
  });

  it('names the malformed or missing fields and the user', () => {
    expect(() => parseUserItem({ ...created, lang: 'de' })).toThrow(CorruptUserItemError);
    expect(() => parseUserItem({ ...created, lang: 'de', isAdmin: 'yes' })).toThrow('users item "u1" is malformed at lang, isAdmin');
    const { email: _email, ...withoutEmail } = created;
    expect(() => parseUserItem(withoutEmail)).toThrow('malformed at email');
  });

  it('checks a projection only for the fields asked for, as the whole item is checked', () => {
    expect(parseUserFields({ userId: 'u1', accountId: 'a1', pushId: 'p' }, ['userId', 'accountId', 'pushId'])).toEqual({ userId: 'u1', accountId: 'a1', pushId: 'p' });
    expect(() => parseUserFields({ userId: 'u1' }, ['userId', 'firstName'])).toThrow('malformed at firstName');
  });
});
