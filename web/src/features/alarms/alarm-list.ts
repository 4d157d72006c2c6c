/** Search and sort of the alarm receivers table (spec section 2), as pure functions. */
import type { AlarmReceiver } from '../../../../shared/schemas/alarms';
import { formatPhone, type PhoneRegion } from '../../../../shared/validators/phone';

export type AlarmSortColumn = 'name' | 'email' | 'phone';
export interface AlarmSort {
  column: AlarmSortColumn;
  desc: boolean;
}

/** The phone as shown to a viewer in `viewer`'s country: national format, or international for another country's number. */
export const phoneText = (r: Pick<AlarmReceiver, 'country_code' | 'phone'>, viewer: PhoneRegion): string =>
  r.phone && r.country_code ? formatPhone(`+${r.country_code}${r.phone}`, viewer) : '';

/** Name, e-mail or phone (as shown, or its digits) contains the search. */
export function matchesReceiver(r: AlarmReceiver, query: string, viewer: PhoneRegion): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const digits = q.replace(/[\s\-+()]/g, '');
  const phone = phoneText(r, viewer);
  return (
    r.name.toLowerCase().includes(q) ||
    (r.email ?? '').toLowerCase().includes(q) ||
    phone.includes(q) ||
    (digits !== '' && /^\d+$/.test(digits) && phone.replace(/\D/g, '').includes(digits))
  );
}

/** A click on the sorted column turns its direction; on another column sorts by it ascending. */
export function nextSort(current: AlarmSort, column: AlarmSortColumn): AlarmSort {
  return current.column === column ? { column, desc: !current.desc } : { column, desc: false };
}

/** Phones sort by their international form: grouped by country, whatever format shows them. */
const phoneSortKey = (r: Pick<AlarmReceiver, 'country_code' | 'phone'>): string => (r.phone && r.country_code ? `+${r.country_code}${r.phone}` : '');

export function sortReceivers(rows: readonly AlarmReceiver[], sort: AlarmSort, locale: string): AlarmReceiver[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const value = (r: AlarmReceiver) => (sort.column === 'name' ? r.name : sort.column === 'email' ? (r.email ?? '') : phoneSortKey(r));
  return [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    // Empty values last in both directions.
    if (!x !== !y) return x ? -1 : 1;
    // Phones digit by digit from the country code (+46… before +47…), not as one large number.
    const order = (sort.column === 'phone' ? (x < y ? -1 : x > y ? 1 : 0) : collator.compare(x, y)) || a.id.localeCompare(b.id);
    return sort.desc ? -order : order;
  });
}
