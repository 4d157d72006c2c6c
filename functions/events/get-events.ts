import { routes } from '../../shared/routes';
import { EVENTS_MAX } from '../../shared/schemas/events';
import { httpHandler } from '../platform/http';
import { getUnit, listUnits } from '../tracking/unit-repository';
import { eventsOfUnits, unitEvents } from './event-repository';
import { toEvent } from './event-item';
import { assertNotLockedFor, isLockedFor } from '../units/lock-rules';

export const handler = httpHandler(routes.getEvents, async ({ auth, query, timeZone }) => {
  const q = { fromMs: Date.parse(query.from), toMs: Date.parse(query.to), type: query.type, limit: EVENTS_MAX };
  // A locked unit's events (where it was) are its locker's and support's only.
  const unit = query.imei ? await getUnit(auth, query.imei) : null;
  if (unit) assertNotLockedFor(auth, unit);
  const open = unit ? [] : (await listUnits(auth)).filter((u) => !isLockedFor(auth, u));
  const found = unit ? await unitEvents(unit, q) : await eventsOfUnits(auth.accountId, open, auth.unitImeis === undefined, q);
  return { events: found.items.map((e) => toEvent(e, timeZone)), truncated: found.more };
});
