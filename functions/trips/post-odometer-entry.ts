import { routes } from '../../shared/routes';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { ValidationError } from '../platform/errors';
import { created, httpHandler } from '../platform/http';
import { parseDateTime } from '../../shared/local-time';
import { registeredAtOf } from '../domain/unit/schema';
import { unitFor } from './access';
import { addOdometerEntry } from './odometer';
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
  // Kept with the counter at that time, so that the trips after it count from the value entered.
  return created(toOdometerEntry(await addOdometerEntry(unit, atTs, body.value, auth.userId, now), timeZone));
});
