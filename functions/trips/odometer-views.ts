/** Odometer entries as the API answers them. */
import type { OdometerEntry } from '../../shared/schemas/trips';
import { isoInZone } from '../../shared/local-time';
import type { OdometerEntryItem } from './odometer';

export function toOdometerEntry(item: OdometerEntryItem, zone: string): OdometerEntry {
  return {
    id: String(item.atTs),
    imei: item.imei,
    time: isoInZone(item.atTs, zone),
    value: item.valueKm,
    createdBy: item.createdBy || null,
    createdAt: isoInZone(item.createdAt, zone),
  };
}
