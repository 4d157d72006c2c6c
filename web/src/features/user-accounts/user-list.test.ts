import { describe, expect, it } from 'vitest';
import type { AccountUser } from '../../../../shared/schemas/administration';
import { matchesUser, nextSort, sortUsers } from './user-list';

const user = (id: string, FirstName: string, email: string, isAdmin: boolean, imeis: string[]): AccountUser => ({
  id,
  FirstName,
  LastName: 'Berg',
  email,
  username: email,
  isAdmin,
  imeis,
  lang: 'sv',
});
const rows = [user('1', 'Örjan', 'o@x.se', false, ['a', 'b']), user('2', 'Anna', 'z@x.se', true, []), user('3', 'Bo', 'b@x.se', false, ['a'])];

describe('users table', () => {
  it('searches name and e-mail', () => {
    expect(rows.filter((u) => matchesUser(u, 'anna berg')).map((u) => u.id)).toEqual(['2']);
    expect(rows.filter((u) => matchesUser(u, 'B@X')).map((u) => u.id)).toEqual(['3']);
    expect(rows.filter((u) => matchesUser(u, '  ')).length).toBe(3);
  });

  it('sorts by each column, an admin counting every unit of the account', () => {
    expect(sortUsers(rows, { column: 'name', desc: false }, 'sv', 5).map((u) => u.id)).toEqual(['2', '3', '1']);
    expect(sortUsers(rows, { column: 'email', desc: true }, 'sv', 5).map((u) => u.id)).toEqual(['2', '1', '3']);
    expect(sortUsers(rows, { column: 'admin', desc: false }, 'sv', 5).map((u) => u.id)).toEqual(['2', '3', '1']);
    expect(sortUsers(rows, { column: 'units', desc: false }, 'sv', 5).map((u) => u.id)).toEqual(['3', '1', '2']);
    expect(nextSort({ column: 'units', desc: false }, 'units')).toEqual({ column: 'units', desc: true });
    expect(nextSort({ column: 'units', desc: true }, 'name')).toEqual({ column: 'name', desc: false });
  });
});
