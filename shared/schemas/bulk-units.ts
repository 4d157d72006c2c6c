/**
 * Bulk unit tasks (spec sections 2 and 4): one action for up to 100 selected units, answered per
 * unit. Operating mode and DOUT go through the device command service per unit; alarm receivers
 * through the receivers' unit assignment; departments and tags are added to each unit's own set
 * (the last three for admins only).
 */
import { z } from 'zod';
import { doutParamsSchema, operatingModeParamsSchema } from './commands';
import { IMEI_PATTERN } from '../validators/imei';

export const BULK_UNITS_MAX = 100;
export const BULK_RECEIVERS_MAX = 50;
/** Departments or tags added in one task. */
export const BULK_ORGANISATION_MAX = 20;

export const bulkMessageKeys = {
  BulkSelectUnits: 'BulkSelectUnits',
  BulkTooManyUnits: 'BulkTooManyUnits',
  BulkInvalidAction: 'BulkInvalidAction',
  BulkSelectReceivers: 'BulkSelectReceivers',
  BulkTooManyReceivers: 'BulkTooManyReceivers',
  /** Per unit: not a unit the caller may see (never acted on). */
  BulkUnitNotFound: 'BulkUnitNotFound',
  /** A receiver that is not the account's (the whole request: 422 errors['action.receiverIds']). */
  BulkReceiverNotFound: 'BulkReceiverNotFound',
  BulkSelectDepartments: 'BulkSelectDepartments',
  BulkSelectTags: 'BulkSelectTags',
  BulkTooManyOrganisationItems: 'BulkTooManyOrganisationItems',
  /** A department or tag that is not the account's (the whole request: 422 errors['action.ids']). */
  BulkOrganisationItemNotFound: 'BulkOrganisationItemNotFound',
} as const;
const keys = bulkMessageKeys;

export const bulkActionTypes = ['operatingMode', 'dout', 'alarmReceivers', 'departments', 'tags'] as const;

/** The ids of departments or tags to add to the units. */
const organisationIds = (selectKey: string) =>
  z
    .array(z.string().regex(/^[a-z0-9-]{1,64}$/, keys.BulkOrganisationItemNotFound), { message: selectKey })
    .min(1, selectKey)
    .max(BULK_ORGANISATION_MAX, keys.BulkTooManyOrganisationItems)
    .transform((ids) => [...new Set(ids)]);
export type BulkActionType = (typeof bulkActionTypes)[number];

export const bulkActionSchema = z.discriminatedUnion(
  'type',
  [
    operatingModeParamsSchema.extend({ type: z.literal('operatingMode') }),
    doutParamsSchema.extend({ type: z.literal('dout') }),
    z.object({
      type: z.literal('alarmReceivers'),
      receiverIds: z
        .array(z.string().trim().min(1, keys.BulkReceiverNotFound).max(64, keys.BulkReceiverNotFound), { message: keys.BulkSelectReceivers })
        .min(1, keys.BulkSelectReceivers)
        .max(BULK_RECEIVERS_MAX, keys.BulkTooManyReceivers)
        .transform((ids) => [...new Set(ids)]),
    }),
    z.object({ type: z.literal('departments'), ids: organisationIds(keys.BulkSelectDepartments) }),
    z.object({ type: z.literal('tags'), ids: organisationIds(keys.BulkSelectTags) }),
  ],
  { message: keys.BulkInvalidAction },
);
export type BulkAction = z.infer<typeof bulkActionSchema>;
export type BulkActionRequest = z.input<typeof bulkActionSchema>;

export const bulkUnitsRequestSchema = z.object({
  imeis: z
    .array(z.string().regex(IMEI_PATTERN, keys.BulkUnitNotFound), { message: keys.BulkSelectUnits })
    .min(1, keys.BulkSelectUnits)
    .max(BULK_UNITS_MAX, keys.BulkTooManyUnits)
    .transform((imeis) => [...new Set(imeis)]),
  action: bulkActionSchema,
});
export type BulkUnitsRequest = z.input<typeof bulkUnitsRequestSchema>;

export const bulkUnitResultSchema = z.object({
  imei: z.string(),
  ok: z.boolean(),
  /** The message key of what went wrong for this unit, else null. */
  error: z.string().nullable(),
  /** The device command sent (operating mode, DOUT), else null. */
  commandId: z.string().nullable(),
});
export type BulkUnitResult = z.infer<typeof bulkUnitResultSchema>;
export const bulkUnitsResponseSchema = z.object({ results: z.array(bulkUnitResultSchema) });
export type BulkUnitsResponse = z.infer<typeof bulkUnitsResponseSchema>;
