/**
 * The unitOffline event (job `unit-offline-checks`, infra/jobs.ts): a unit is offline once its
 * silence passes what its operating mode allows (shared/unit-status.ts `offlineAfterMs`, the rule
 * the map's status uses). Only the accounts with an active subscription to unitOffline are read
 * (the `watching` index), each with one Query of its units. A unit that went offline within the
 * last `RECENT_MS` is emitted; its source id is the silence's last contact, so every run that sees
 * the same silence names the same delivery, and one silence is delivered once. A locked unit is
 * left out, as the admins do not see it either.
 */
import { isMoving, offlineAfterMs } from '../../shared/unit-status';
import { listAccountUnits } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import type { Ports } from '../platform/ports';
import { emitWebhookEvent } from './emit';
import { unitOfflinePayload } from './payloads';
import { offlineWatchers } from './repository';

/** How far back a unit's going offline is still news; the job runs every 5 minutes. */
export const RECENT_MS = 60 * 60_000;

/** When the unit went offline (epoch ms), or null when it has no state. */
export function offlineSince(unit: Pick<UnitItem, 'state' | 'operatingMode'>): { at: number; afterMs: number } | null {
  const state = unit.state;
  if (!state) return null;
  const afterMs = offlineAfterMs(unit.operatingMode ?? null, isMoving({ speed: state.speed ?? null, movement: state.movement ?? null }));
  return { at: state.lastSeen + afterMs, afterMs };
}

export async function checkOfflineUnits(ports: Pick<Ports, 'queues' | 'clock'>): Promise<{ accounts: number; emitted: number }> {
  const now = ports.clock.now().getTime();
  const accounts = [...new Set((await offlineWatchers()).map((w) => w.accountId))];
  let emitted = 0;
  for (const accountId of accounts) {
    for (const unit of await listAccountUnits(accountId)) {
      if (unit.accountId !== accountId || unit.lockedBy || !unit.state) continue;
      const since = offlineSince(unit);
      if (!since || since.at > now || now - since.at > RECENT_MS) continue;
      const payload = unitOfflinePayload({ accountId, imei: unit.imei, name: unit.name, lastSeen: unit.state.lastSeen, lat: unit.state.lat, lon: unit.state.lon }, since.afterMs);
      emitted += await emitWebhookEvent(payload, ports);
    }
  }
  return { accounts: accounts.length, emitted };
}
