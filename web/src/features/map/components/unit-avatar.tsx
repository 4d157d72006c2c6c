import { memo } from 'react';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { symbolIcon } from '../marker-icons';
import { markerOf } from '../unit-features';

type AvatarProps = { unit: Pick<RealtimeUnit, 'color' | 'symbol' | 'vehicleType'>; size?: number };

/**
 * The unit's marker as the map draws it: its symbol in white on its colour. Compared by what it
 * shows, not by the unit: a unit that moved is a new object, and its list row renders again.
 */
export const UnitAvatar = memo(
  function UnitAvatar({ unit, size = 32 }: AvatarProps) {
    const { color, symbol } = markerOf(unit);
    const Icon = symbolIcon(symbol);
    return (
      <span className="rt-avatar" style={{ background: color, width: size, height: size }} aria-hidden>
        <Icon size={Math.round(size * 0.56)} stroke={2} color="#ffffff" />
      </span>
    );
  },
  (before: AvatarProps, after: AvatarProps) =>
    before.size === after.size && before.unit.color === after.unit.color && before.unit.symbol === after.unit.symbol && before.unit.vehicleType === after.unit.vehicleType,
);
