import { describe, expect, it } from 'vitest';
import { accountSearchKeys, accountSearchName, orgNumberSearchKey } from './search-keys';

describe('account search keys', () => {
  it('buckets a company name by its first normalised character and keeps the whole name with the id', () => {
    expect(accountSearchKeys({ accountId: 'a1', name: '  Åkeri  Nord AB ', orgNumber: '556677-8899' })).toEqual({
      searchBucket: 'å',
      searchName: 'åkeri nord ab#a1',
      orgNumberKey: '5566778899',
    });
  });
  it('leaves out keys it has nothing for (an index key cannot be empty)', () => {
    expect(accountSearchKeys({ accountId: 'a1', name: '   ' })).toEqual({});
  });
  it('reads names and org numbers as the search does', () => {
    expect(accountSearchName('DEMO  fleet')).toBe('demo fleet');
    expect(orgNumberSearchKey('556 677-8899')).toBe('5566778899');
  });
});
