/** The place pages' pure parts: search, the rule in words, the form to the request and its errors. */
import { describe, expect, it } from 'vitest';
import type { Place } from '../../../../shared/schemas/places';
import { emptyPlaceForm, formOf, matchesPlace, requestOf, ruleText, scheduleErrors, validatePlace } from './place-form';

const t = (key: string, vars: Record<string, string | number> = {}) => `${key}${JSON.stringify(vars)}`;
const office: Place = {
  id: 'p1',
  label: 'Kontoret',
  address: 'Sveavägen 10, Stockholm',
  lat: 59.3467,
  lon: 18.0718,
  radius: 150,
  imeis: ['356938035643809'],
  rule: { when: 'between', type: 'business', otherPlaceId: 'p2' },
  schedule: [{ days: [1, 2], from: '07:00', to: '09:00' }],
  timeZone: 'Europe/Stockholm',
};

describe('place form', () => {
  it('searches label and address by every word, case and accents aside', () => {
    expect(matchesPlace(office, '')).toBe(true);
    expect(matchesPlace(office, 'SVEAVAGEN stock')).toBe(true);
    expect(matchesPlace(office, 'kontor')).toBe(true);
    expect(matchesPlace(office, 'kontor göteborg')).toBe(false);
  });

  it('puts a rule in words, naming the other place of a between rule', () => {
    expect(ruleText({ when: 'start', type: 'private' }, [], t)).toBe('PlaceRuleStartText{"type":"PlaceTypePrivate{}"}');
    expect(ruleText(office.rule, [{ id: 'p2', label: 'Hemma' }], t)).toBe('PlaceRuleBetweenText{"type":"PlaceTypeBusiness{}","place":"Hemma"}');
  });

  it('turns a place into the form and back into the same request', () => {
    const { id: _id, timeZone: _zone, ...request } = office;
    expect(requestOf(formOf(office))).toEqual(request);
    // Another rule leaves the other place out.
    expect(requestOf({ ...formOf(office), when: 'end' }).rule).toEqual({ when: 'end', type: 'business' });
  });

  it('finds what an empty form lacks with the shared schema, by field', () => {
    const { errors } = validatePlace({ ...emptyPlaceForm, when: 'between', schedule: [{ days: [], from: '07:00', to: '8' }] });
    expect(errors).toEqual({
      label: 'SpecifyPlaceLabel',
      lat: 'PlaceInvalidCoordinates',
      lon: 'PlaceInvalidCoordinates',
      imeis: 'PlaceSelectUnit',
      'schedule.0.days': 'SelectAtLeastOneDay',
      'schedule.0.to': 'InvalidTime',
      'rule.otherPlaceId': 'SelectOtherPlace',
    });
    expect(scheduleErrors(errors)).toEqual({ byWindow: { 0: { days: 'SelectAtLeastOneDay', to: 'InvalidTime' } }, list: undefined });
    expect(scheduleErrors({ schedule: 'TooManyWindows' }).list).toBe('TooManyWindows');
  });
});
