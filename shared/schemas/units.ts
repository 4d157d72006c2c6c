/**
 * The units list (/user/edit-terminal-list, spec sections 2 and 3): every unit the caller may see
 * (an account admin all of the account's, an ordinary user only the granted ones), without the
 * position, so it works whether or not the account has the real-time map.
 */
import { z } from 'zod';

export const unitListItemSchema = z.object({
  imei: z.string(),
  name: z.string(),
  registrationNumber: z.string().nullable(),
  vehicleType: z.string(),
  /** Marker colour (#rrggbb) and symbol, as on the map. */
  color: z.string(),
  symbol: z.string(),
  driver: z.string().nullable(),
  departments: z.array(z.string()),
  /** When the tracker was last heard from (ISO 8601 UTC), null before its first report. */
  lastSeen: z.string().nullable(),
});
export type UnitListItem = z.infer<typeof unitListItemSchema>;
export const unitListSchema = z.array(unitListItemSchema);
