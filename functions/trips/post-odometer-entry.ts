import { routes } from '../../shared/routes';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { ValidationError } from '../platform/errors';
import { created, httpHandler } from '../platform/http';
import { registeredAtOf } from '../platform/unit-item';
import { unitFor } from './access';
import { parseDateTime } from '../platform/local-time';
import { counterAt, putOdometerEntry, type OdometerEntryItem } from './odometer';
import { toOdometerEntry } from './odometer-views';

/** A clock a little ahead of the server's is not the future. */
const CLOCK_SKEW_MS = 60_000;

export const handler = httpHandler(routes.postOdometerEntry, async ({ auth, params, body, timeZone, ports }) => {
  const unit = await unitFor(auth, params.imei);
  const now = ports.clock.now().getTime();
  const atTs = parseDateTime(body.time, timeZone);
  if (Number.isNaN(atTs)) throw new ValidationError({ time: [keys.InvalidDateTime] });
  if (atTs > now + CLOCK_SKEW_MS) throw new ValidationError({ time: [keys.OdometerEntryInFuture] });
  if (atTs < registeredAtOf(unit)) throw new ValidationError({ time: [keys.InvalidDateTime] });
  // The counter at that time, so that the trips after it count from the value entered.
  const counter = await counterAt(unit, atTs);
  const item: OdometerEntryItem = {
    imei: unit.imei,
    atTs,
    accountId: unit.accountId,
    valueKm: Math.round(body.value * 1000) / 1000,
    ...(counter ? { counterAtEntryM: counter.counterM, counterSource: counter.source } : {}),
    createdBy: auth.userId,
    createdAt: now,
  };
  await putOdometerEntry(item);
  return created(toOdometerEntry(item, timeZone));
});
