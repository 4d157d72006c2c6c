import { routes } from '../../../shared/routes';
import { tripMessageKeys } from '../../../shared/schemas/trips-messages';
import { unitEditorMessageKeys as keys } from '../../../shared/schemas/unit-editor-messages';
import { ValidationError } from '../../platform/errors';
import { created, httpHandler } from '../../platform/http';
import { parseDateTime } from '../../../shared/local-time';
import { registeredAtOf } from '../../domain/unit/schema';
import { unitFor } from '../../trips/access';
import { addOperatingHoursEntry, toOperatingHoursEntry } from './operating-hours';

/** A clock a little ahead of the server's is not the future (as odometer entries). */
const CLOCK_SKEW_MS = 60_000;

export const handler = httpHandler(routes.postOperatingHoursEntry, async ({ auth, params, body, timeZone, ports }) => {
  const unit = await unitFor(auth, params.imei);
  const now = ports.clock.now().getTime();
  const atTs = parseDateTime(body.time, timeZone);
  if (Number.isNaN(atTs) || atTs < registeredAtOf(unit)) throw new ValidationError({ time: [tripMessageKeys.InvalidDateTime] });
  if (atTs > now + CLOCK_SKEW_MS) throw new ValidationError({ time: [keys.ReadingInFuture] });
  return created(toOperatingHoursEntry(await addOperatingHoursEntry(unit, atTs, body.value, auth.userId, now), timeZone));
});
