import { describe, expect, it } from 'vitest';
import { accountSettingsUpdateSchema, duplicatePurposeIndexes, purposeSpellingKey, userSaveSchema } from './administration';

describe('default purposes without spelling duplicates (spec section 5)', () => {
  it('ignores case, accents and runs of white space', () => {
    expect(purposeSpellingKey('  Möte   med KUND ')).toBe('mote med kund');
    expect(purposeSpellingKey('Café')).toBe(purposeSpellingKey('cafe'));
    expect(duplicatePurposeIndexes(['Kund', 'Möte', 'kund', 'mote', 'Resa'])).toEqual([2, 3]);
    expect(duplicatePurposeIndexes(['Kund', 'Kunder'])).toEqual([]);
  });

  it('refuses them with their key, and keeps the list trimmed otherwise', () => {
    const bad = accountSettingsUpdateSchema.safeParse({ defaultPurposes: ['Service', 'SERVICE'] });
    expect(bad.success ? [] : bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['defaultPurposes', 'DuplicateDefaultPurpose']]);
    expect(accountSettingsUpdateSchema.parse({ defaultPurposes: ['  Resa   till kund '] }).defaultPurposes).toEqual(['Resa till kund']);
  });
});

describe('a user as an admin saves them', () => {
  it('lower-cases the e-mail, drops an empty password and repeated units', () => {
    const saved = userSaveSchema.parse({ FirstName: ' Ann ', LastName: 'Berg', email: ' Ann@Example.SE ', password: '', imeis: ['356938031000001', '356938031000001'] });
    expect(saved).toEqual({ FirstName: 'Ann', LastName: 'Berg', email: 'ann@example.se', isAdmin: false, imeis: ['356938031000001'] });
  });
});
