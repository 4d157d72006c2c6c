/** Gives a unit a stored state the way ingest does: one transition from the item as read. */
import type { UnitState } from '../../functions/ingest/types';
import { getUnitItem, getUnitItems } from '../../functions/domain/unit/reads';
import type { UnitItem } from '../../functions/domain/unit/schema';
import { commitUnitTransition } from '../../functions/domain/unit/transitions';

export async function storeUnitState(imei: string, state: UnitState): Promise<boolean> {
  const unit = await getUnitItem(imei, { consistent: true });
  if (!unit) throw new Error(`no unit ${imei}`);
  if (unit.state && unit.state.ts >= state.ts) return false;
  return commitUnitTransition(unit, { state, stages: unit.stages ?? {}, effects: unit.effects ?? {} });
}

/** A unit as ingest reads it: with its geofence and place copies (functions/domain/unit/reads.ts getUnitItems). */
export async function unitWithCopies(imei: string): Promise<UnitItem | undefined> {
  const unit = (await getUnitItems([imei])).get(imei);
  return unit instanceof Error ? undefined : unit;
}
