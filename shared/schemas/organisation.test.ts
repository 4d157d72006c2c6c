import { describe, expect, it } from 'vitest';
import { featureProfileRequestSchema, normalizeOrganisationName, organisationAssignmentSchema, organisationNameSchema, tidyOrganisationName } from './organisation';

describe('organisation names', () => {
  it('are one name whatever their case and whitespace', () => {
    expect(normalizeOrganisationName(' North  Region\t')).toBe(normalizeOrganisationName('north region'));
    expect(normalizeOrganisationName('Rörläggning')).toBe('rörläggning');
    // Compatibility forms (a full-width letter) are the same letter.
    expect(normalizeOrganisationName('Ｓervice')).toBe('service');
  });
  it('are different names when their letters differ', () => {
    expect(normalizeOrganisationName('North region')).not.toBe(normalizeOrganisationName('Northregion'));
    expect(normalizeOrganisationName('Ost')).not.toBe(normalizeOrganisationName('Öst'));
  });
  it('are stored tidied, their case kept', () => {
    expect(tidyOrganisationName('  North   Region ')).toBe('North Region');
    expect(organisationNameSchema.safeParse('   ').error?.issues[0]?.message).toBe('OrganisationNameRequired');
    expect(organisationNameSchema.safeParse('x'.repeat(51)).error?.issues[0]?.message).toBe('OrganisationNameTooLong');
  });
  it('needs at least one unit or user in an assignment and one feature in a profile', () => {
    expect(organisationAssignmentSchema.safeParse({ imeis: [], userIds: [] }).error?.issues[0]?.message).toBe('SelectAtLeastOneUnitOrUser');
    expect(organisationAssignmentSchema.safeParse({ userIds: ['u1'] }).success).toBe(true);
    expect(featureProfileRequestSchema.safeParse({ name: 'Drivers', features: [] }).error?.issues[0]?.message).toBe('SelectAtLeastOneFeature');
    expect(featureProfileRequestSchema.parse({ name: 'Drivers', features: ['tripLog', 'tripLog'] })).toEqual({ name: 'Drivers', features: ['tripLog'], reports: [] });
  });
});
