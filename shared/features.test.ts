/**
 * What each account feature requirement means over the account's flags: one function, which the
 * middleware (functions/platform/http.ts) and the web menu (web/src/app/access.ts) both call.
 */
import { describe, expect, it } from 'vitest';
import { featureCases as cases } from '../test/support/feature-cases';
import { featureRequirements, meetsFeature, type FeatureRequirement } from './features';
import { isMessageKey } from './i18n';


describe('meetsFeature', () => {
  it.each(cases)('%s with %j: %s', (requirement, features, meets) => {
    expect(meetsFeature(features, requirement)).toBe(meets);
  });

  it('lets an account without flags meet no requirement', () => {
    for (const requirement of Object.keys(featureRequirements) as FeatureRequirement[]) expect(meetsFeature(undefined, requirement)).toBe(false);
  });

  it('names a translated message key for each requirement', () => {
    expect(Object.values(featureRequirements).map((r) => r.deniedKey).filter((key) => !isMessageKey(key))).toEqual([]);
  });
});
