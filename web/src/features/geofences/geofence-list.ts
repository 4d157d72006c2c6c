/** The geofence list's pure parts: the search over names and unit names, and each unit's geofence count. */
import type { Geofence } from '../../../../shared/schemas/geofences';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();

/** Geofences whose name or one of whose units' names contains every word of the query. */
export function filterGeofences(list: readonly Geofence[], query: string): Geofence[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return [...list];
  return list.filter((g) => {
    const text = fold([g.name, ...g.units.map((u) => u.name)].join(' '));
    return words.every((w) => text.includes(w));
  });
}

/** How many geofences each unit has, leaving one geofence out (the one being edited). */
export function geofenceCounts(list: readonly Geofence[], except?: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const g of list) {
    if (g.id === except) continue;
    for (const imei of g.imeis) counts.set(imei, (counts.get(imei) ?? 0) + 1);
  }
  return counts;
}
