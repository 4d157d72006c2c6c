import { routes } from '../../shared/routes';
import { POSITIONS_MAX_POINTS } from '../../shared/schemas/tracking';
import { trackingMessageKeys } from '../../shared/schemas/tracking-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { unitPositions } from './position-repository';
import { toPosition } from './stored-shape';
import { getUnit } from './unit-repository';
import { assertNotLockedFor } from '../units/lock-rules';

export const handler = httpHandler(routes.getPositions, async ({ auth, params, query }) => {
  const unit = await getUnit(auth, params.imei);
  // A locked unit's movements are its locker's and support's only (423 TrackerIsLocked).
  assertNotLockedFor(auth, unit);
  const { items, truncated } = await unitPositions(unit, Date.parse(query.from), Date.parse(query.to), POSITIONS_MAX_POINTS);
  const positions = items.map(toPosition);
  return truncated ? new HttpReply(200, positions, trackingMessageKeys.PositionsTruncated) : positions;
});
