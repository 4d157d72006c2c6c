/** Gives a unit a stored state the way ingest does: one transition from the item as read. */
import type { UnitState } from '../../functions/ingest/types';
import { commitUnitTransition, getUnitItem } from '../../functions/platform/unit-item';

export async function storeUnitState(imei: string, state: UnitState): Promise<boolean> {
  const unit = await getUnitItem(imei, { consistent: true });
  if (!unit) throw new Error(`no unit ${imei}`);
  if (unit.state && unit.state.ts >= state.ts) return false;
  return commitUnitTransition(unit, { state, stages: unit.stages ?? {}, effects: unit.effects ?? {} });
}
