/**
 * The units list (/user/edit-terminal-list, spec sections 2 and 3): every unit the caller may see
 * (an account admin all of the account's, an ordinary user only the granted ones), without the
 * position, so it works whether or not the account has the real-time map.
 */
import { z } from 'zod';
import { realtimeUnitSchema } from './tracking';

export const unitListItemSchema = realtimeUnitSchema.omit({ state: true, doutLabels: true, operatingMode: true }).extend({
  /** When the tracker was last heard from (ISO 8601 UTC), null before its first report. */
  lastSeen: z.string().nullable(),
  /** The unit's tags by name (functions/organisation); absent from answers made before tags existed. */
  tags: z.array(z.string()).optional(),
  /** The outputs' names, only when the unit has some: bulk DOUT tasks confirm an immobiliser or relay first. */
  doutLabels: z.record(z.string(), z.string()).optional(),
});
export type UnitListItem = z.infer<typeof unitListItemSchema>;
export const unitListSchema = z.array(unitListItemSchema);
