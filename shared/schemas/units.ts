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

/** Server-side orders of the paged list: what an index of the units table keeps sorted (name, IMEI). */
export const unitListSorts = ['name.asc', 'name.desc', 'imei.asc', 'imei.desc'] as const;
export type UnitListSort = (typeof unitListSorts)[number];

/** Units per page: at most 500 (about 150 KB of JSON), 100 unless asked. */
export const UNIT_PAGE_MAX = 500;
export const UNIT_PAGE_DEFAULT = 100;

/**
 * GET /api/v1/user/units?q=&sort=&limit=&cursor=: any of them asks for the paged answer. `q` is
 * words that must each appear (ignoring case) in the name, registration number, IMEI or driver;
 * `cursor` is the `nextCursor` of the previous page of the same `q` and `sort`.
 */
export const unitListQuerySchema = z.object({
  q: z.string().max(100, 'InvalidValue').optional(),
  sort: z.enum(unitListSorts, { error: 'InvalidValue' }).optional(),
  limit: z.coerce.number({ error: 'InvalidValue' }).int('InvalidValue').min(1, 'InvalidValue').max(UNIT_PAGE_MAX, 'InvalidValue').optional(),
  cursor: z.string().min(1, 'InvalidCursor').max(1000, 'InvalidCursor').optional(),
});
export type UnitListQuery = z.infer<typeof unitListQuerySchema>;

/** One page of the units list; `nextCursor` is null on the last page. */
export const unitPageSchema = z.object({
  units: z.array(unitListItemSchema),
  nextCursor: z.string().nullable(),
});
export type UnitPage = z.infer<typeof unitPageSchema>;

/** The answer: the whole list (no paging parameter, an account of at most UNIT_LIST_WHOLE_MAX units) or a page. */
export const unitListAnswerSchema = z.union([unitListSchema, unitPageSchema]);

/** Above this many units the unpaged answer is refused (422 UnitListTooLarge): ask for pages. */
export const UNIT_LIST_WHOLE_MAX = 5000;
