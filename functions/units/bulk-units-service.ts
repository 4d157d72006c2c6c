/**
 * Bulk unit tasks (POST /api/v1/user/units/bulk): one action for the selected units, answered per
 * unit in the order asked. Every unit is read first and checked as everywhere else: a unit the
 * caller may not see (another account's, not granted to an ordinary user, unknown) is reported
 * BulkUnitNotFound and never acted on; a unit locked by someone else is TrackerIsLocked.
 *
 * - operatingMode and dout: one device command per unit through the command service, so each
 *   stays pending until its tracker answers and a DOUT awaiting its answer is refused for that
 *   unit (DoutAwaitingAnswer), exactly as from the unit's own page.
 * - alarmReceivers (admins): the units join each receiver's units through the receivers' own
 *   assignment (functions/alarms/receiver-service.ts), which keeps locked units as they are.
 * - departments, tags (admins): each chosen item is added to each unit's id set, the single-item
 *   update the organisation's own assignment makes (functions/domain/unit/writes.ts
 *   `setUnitOrganisationItem`), so a unit keeps what it carried and nothing else of it is touched.
 */
import { bulkMessageKeys as keys, type BulkAction, type BulkUnitResult } from '../../shared/schemas/bulk-units';
import { alarmMessageKeys } from '../../shared/schemas/alarms-messages';
import { unitLockMessageKeys } from '../../shared/schemas/unit-lock';
import { findReceiver } from '../alarms/receiver-repository';
import { assignUnits } from '../alarms/receiver-service';
import type { AuthContext } from '../platform/auth-context';
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { setUnitOrganisationItem } from '../domain/unit/writes';
import { getItem } from '../organisation/organisation-repository';
import { sendCommand } from './command-service';
import { isLockedFor } from './lock-rules';
import { mapLimited } from '../platform/concurrency';

type Caller = Pick<AuthContext, 'accountId' | 'userId' | 'unitImeis' | 'isAdmin' | 'isSupport' | 'subsiteId'>;

/** Units acted on side by side; the command service's own writes are per unit. */
const PARALLEL = 8;

const failed = (imei: string, error: string): BulkUnitResult => ({ imei, ok: false, error, commandId: null });
const done = (imei: string, commandId: string | null = null): BulkUnitResult => ({ imei, ok: true, error: null, commandId });

function keyOf(error: unknown, imei: string): string {
  if (error instanceof DomainError) return error.key;
  logger.error('bulk unit task failed', { imei, error: error instanceof Error ? error.message : String(error) });
  return 'SomethingWentWrong';
}

/** The unit if the caller may see it; null otherwise (another account's, not granted, unknown). */
async function visibleUnit(caller: Caller, imei: string): Promise<UnitItem | null> {
  if (caller.unitImeis !== undefined && !caller.unitImeis.includes(imei)) return null;
  const unit = await getUnitItem(imei);
  return unit && unit.accountId === caller.accountId ? unit : null;
}

export async function runBulk(caller: Caller, imeis: readonly string[], action: BulkAction, ports: Pick<Ports, 'devices' | 'live' | 'clock'>): Promise<BulkUnitResult[]> {
  if ((action.type === 'alarmReceivers' || action.type === 'departments' || action.type === 'tags') && !caller.isAdmin) {
    throw new ForbiddenError('NoAccessToAdministratorPages');
  }
  const units = await mapLimited(imeis, PARALLEL, (imei) => visibleUnit(caller, imei));
  const usable = (unit: UnitItem | null, i: number): BulkUnitResult | UnitItem => {
    if (!unit) return failed(imeis[i] as string, keys.BulkUnitNotFound);
    if (isLockedFor(caller, unit)) return failed(unit.imei, unitLockMessageKeys.TrackerIsLocked);
    return unit;
  };
  const checked = units.map(usable);

  if (action.type === 'alarmReceivers') return assignReceivers(caller, checked, action.receiverIds, ports.clock.now());
  if (action.type === 'departments' || action.type === 'tags') return addOrganisationItems(caller, checked, action.type, action.ids);

  return mapLimited(checked, PARALLEL, async (entry) => {
    if (!('accountId' in entry)) return entry;
    try {
      if (action.type !== 'operatingMode' && action.type !== 'dout') return failed(entry.imei, keys.BulkInvalidAction);
      const request =
        action.type === 'operatingMode'
          ? { type: 'operatingMode' as const, mode: action.mode }
          : { type: 'dout' as const, output: action.output, on: action.on, ...(action.durationSeconds === undefined ? {} : { durationSeconds: action.durationSeconds }) };
      const command = await sendCommand(entry, request, ports);
      return done(entry.imei, command.id);
    } catch (error) {
      return failed(entry.imei, keyOf(error, entry.imei));
    }
  });
}

async function assignReceivers(caller: Caller, checked: ReadonlyArray<BulkUnitResult | UnitItem>, receiverIds: readonly string[], now: Date): Promise<BulkUnitResult[]> {
  const receivers = await Promise.all(receiverIds.map((id) => findReceiver(caller.accountId, id)));
  const missing = receivers.flatMap((r, i) => (r ? [] : [i]));
  if (missing.length) {
    throw new ValidationError(Object.fromEntries(missing.map((i) => [`action.receiverIds.${i}`, [keys.BulkReceiverNotFound]])), keys.BulkReceiverNotFound);
  }
  // The first error a receiver's assignment met, per unit. A locked unit keeps its receivers (the
  // receivers' own rule), so it is reported alone rather than failing every unit of the receiver.
  const errors = new Map<string, string>();
  const units: UnitItem[] = [];
  for (const entry of checked) {
    if (!('accountId' in entry)) continue;
    if (entry.lockedBy !== undefined) errors.set(entry.imei, alarmMessageKeys.UnitIsLocked);
    else units.push(entry);
  }
  for (const receiver of receivers) {
    if (!receiver) continue;
    const had = new Set(receiver.gpsImeis);
    const adding = units.filter((u) => !had.has(u.imei));
    if (!adding.length) continue;
    try {
      await assignUnits(
        caller,
        {
          receiver_id: receiver.id,
          terminals: [
            ...[...had, ...adding.map((u) => u.imei)].map((imei) => ({ terminal_id: imei, device_type: 'gps' as const })),
            ...receiver.bleIds.map((id) => ({ terminal_id: id, device_type: 'ble' as const })),
          ],
        },
        now,
      );
    } catch (error) {
      const key = error instanceof ValidationError ? (Object.values(error.fieldErrors)[0]?.[0] ?? error.key) : keyOf(error, receiver.id);
      for (const u of adding) if (!errors.has(u.imei)) errors.set(u.imei, key === alarmMessageKeys.UnitsSelectedErrorMsg ? keys.BulkUnitNotFound : key);
    }
  }
  return checked.map((entry) => {
    if (!('accountId' in entry)) return entry;
    const error = errors.get(entry.imei);
    return error ? failed(entry.imei, error) : done(entry.imei);
  });
}

/** Adds every item (the account's, or the whole request is refused) to each usable unit. */
async function addOrganisationItems(caller: Caller, checked: ReadonlyArray<BulkUnitResult | UnitItem>, kind: 'departments' | 'tags', ids: readonly string[]): Promise<BulkUnitResult[]> {
  const found = await Promise.all(ids.map((id) => getItem(caller.accountId, kind, id).then(() => true, (error: unknown) => (error instanceof NotFoundError ? false : Promise.reject(error)))));
  const missing = found.flatMap((ok, i) => (ok ? [] : [i]));
  if (missing.length) {
    throw new ValidationError(Object.fromEntries(missing.map((i) => [`action.ids.${i}`, [keys.BulkOrganisationItemNotFound]])), keys.BulkOrganisationItemNotFound);
  }
  return mapLimited(checked, PARALLEL, async (entry) => {
    if (!('accountId' in entry)) return entry;
    try {
      for (const id of ids) {
        // False: the unit changed hands since it was read.
        if (!(await setUnitOrganisationItem(entry.imei, caller.accountId, kind, id, true))) return failed(entry.imei, keys.BulkUnitNotFound);
      }
      return done(entry.imei);
    } catch (error) {
      return failed(entry.imei, keyOf(error, entry.imei));
    }
  });
}
