/** Bulk unit tasks (capability units), spread into the manifest (shared/routes.ts). */
import { bulkUnitsRequestSchema, bulkUnitsResponseSchema } from '../schemas/bulk-units';
import { defineRoute } from '../route-def';

export const bulkUnitRoutes = {
  bulkUnits: defineRoute({
    operationId: 'bulkUnits',
    method: 'POST',
    path: '/api/v1/user/units/bulk',
    capability: 'units',
    file: 'bulk-units',
    access: 'member',
    summary:
      "One action for 1-100 units (BulkSelectUnits, BulkTooManyUnits), answered per unit in the order given: `{ imei, ok, error, commandId }`. A unit the caller may not see is BulkUnitNotFound and never acted on. operatingMode and dout send a device command per unit (a DOUT awaiting its answer: DoutAwaitingAnswer for that unit); alarmReceivers (admins only, else 403) adds the units to each receiver's units (unknown receivers: 422 BulkReceiverNotFound; a locked unit: UnitIsLocked).",
    body: bulkUnitsRequestSchema,
    response: bulkUnitsResponseSchema,
  }),
} as const;
