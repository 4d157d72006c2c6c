import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { symbolIcon } from '../marker-icons';
import { markerOf } from '../unit-features';

/** The unit's marker as the map draws it: its symbol in white on its colour. */
export function UnitAvatar({ unit, size = 32 }: { unit: Pick<RealtimeUnit, 'color' | 'symbol' | 'vehicleType'>; size?: number }) {
  const { color, symbol } = markerOf(unit);
  const Icon = symbolIcon(symbol);
  return (
    <span className="rt-avatar" style={{ background: color, width: size, height: size }} aria-hidden>
      <Icon size={Math.round(size * 0.56)} stroke={2} color="#ffffff" />
    </span>
  );
}
