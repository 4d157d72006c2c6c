/**
 * The place pages' pure parts: the list's search, a rule in words, the editor's state to and from
 * the request (shared/schemas/places.ts) and its errors by field.
 */
import { PLACE_RADIUS_DEFAULT_M, placeRequestSchema, type Place, type PlaceRequest, type PlaceRule } from '../../../../shared/schemas/places';
import type { WeeklyWindow } from '../../../../shared/schemas/schedule';
import type { TripType } from '../../../../shared/schemas/trips';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The list's search: label or address contains every word typed, case and accents aside. */
export function matchesPlace(place: Pick<Place, 'label' | 'address'>, query: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  const text = fold(`${place.label} ${place.address}`);
  return fold(query).split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

export const tripTypeKeys: Readonly<Record<TripType, string>> = { business: 'PlaceTypeBusiness', private: 'PlaceTypePrivate', other: 'PlaceTypeOther' };

/** "Trips that start here: Private", "Trips between here and Office: Business". */
export function ruleText(rule: PlaceRule, places: readonly Pick<Place, 'id' | 'label'>[], t: Translate): string {
  const type = t(tripTypeKeys[rule.type]);
  if (rule.when === 'start') return t('PlaceRuleStartText', { type });
  if (rule.when === 'end') return t('PlaceRuleEndText', { type });
  const other = places.find((p) => p.id === rule.otherPlaceId)?.label ?? '?';
  return t('PlaceRuleBetweenText', { type, place: other });
}

export interface PlaceFormState {
  label: string;
  address: string;
  center: { lat: number; lon: number } | null;
  radius: number;
  imeis: string[];
  when: PlaceRule['when'];
  type: TripType;
  otherPlaceId: string | null;
  schedule: WeeklyWindow[];
}

export const emptyPlaceForm: PlaceFormState = {
  label: '',
  address: '',
  center: null,
  radius: PLACE_RADIUS_DEFAULT_M,
  imeis: [],
  when: 'start',
  type: 'business',
  otherPlaceId: null,
  schedule: [],
};

export function formOf(place: Place): PlaceFormState {
  return {
    label: place.label,
    address: place.address,
    center: { lat: place.lat, lon: place.lon },
    radius: place.radius,
    imeis: [...place.imeis],
    when: place.rule.when,
    type: place.rule.type,
    otherPlaceId: place.rule.otherPlaceId ?? null,
    schedule: place.schedule.map((w) => ({ ...w, days: [...w.days] })),
  };
}

export function requestOf(form: PlaceFormState): PlaceRequest {
  return {
    label: form.label,
    address: form.address,
    lat: form.center?.lat ?? Number.NaN,
    lon: form.center?.lon ?? Number.NaN,
    radius: form.radius,
    imeis: form.imeis,
    rule: { when: form.when, type: form.type, ...(form.when === 'between' && form.otherPlaceId ? { otherPlaceId: form.otherPlaceId } : {}) },
    schedule: form.schedule,
  };
}

/** Message keys by field ('label', 'lat', 'rule.otherPlaceId', 'schedule.0.days', ...), first one each. */
export type FieldKeys = Record<string, string>;

export function validatePlace(form: PlaceFormState): { request: PlaceRequest; errors: FieldKeys } {
  const request = requestOf(form);
  const parsed = placeRequestSchema.safeParse(request);
  const errors: FieldKeys = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.');
      errors[field] ??= issue.message;
    }
  }
  return { request, errors };
}

/** A 422's field errors (`{ field: [key] }`) as FieldKeys. */
export function serverFieldKeys(fieldErrors: Readonly<Record<string, readonly string[] | undefined>>): FieldKeys {
  const errors: FieldKeys = {};
  for (const [field, list] of Object.entries(fieldErrors)) if (list?.[0]) errors[field] = list[0];
  return errors;
}

/** The schedule's errors by window index (its first), from keys like 'schedule.1.from'. */
export type WindowField = 'days' | 'from' | 'to';

/** The schedule's error keys: per window and field (a window's own error counts for its days), and one for the list. */
export function scheduleErrors(errors: FieldKeys): { byWindow: Record<number, Partial<Record<WindowField, string>>>; list: string | undefined } {
  const byWindow: Record<number, Partial<Record<WindowField, string>>> = {};
  let list: string | undefined;
  for (const [field, key] of Object.entries(errors)) {
    const match = /^schedule(?:\.(\d+)(?:\.(days|from|to))?)?/.exec(field);
    if (!match) continue;
    if (match[1] === undefined) {
      list ??= key;
      continue;
    }
    const window = (byWindow[Number(match[1])] ??= {});
    window[(match[2] as WindowField | undefined) ?? 'days'] ??= key;
  }
  return { byWindow, list };
}
