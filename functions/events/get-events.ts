import { routes } from '../../shared/routes';
import { EVENTS_MAX } from '../../shared/schemas/events';
import { httpHandler } from '../platform/http';
import { getUnit, listUnits } from '../tracking/unit-repository';
import { eventsOfUnits, unitEvents } from './event-repository';
import { toEvent } from './event-item';

export const handler = httpHandler(routes.getEvents, async ({ auth, query, timeZone }) => {
  const q = { fromMs: Date.parse(query.from), toMs: Date.parse(query.to), type: query.type, limit: EVENTS_MAX };
  const found = query.imei
    ? await unitEvents(await getUnit(auth, query.imei), q)
    : await eventsOfUnits(auth.accountId, await listUnits(auth), auth.unitImeis === undefined, q);
  return { events: found.items.map((e) => toEvent(e, timeZone)), truncated: found.more };
});
