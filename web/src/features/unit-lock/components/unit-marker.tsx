import '../unit-lock.css';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { symbolIcon } from '../../map/marker-icons';
import { markerOf } from '../../map/unit-features';

type MarkerUnit = Pick<RealtimeUnit, 'color' | 'symbol' | 'vehicleType'>;

/**
 * The unit's marker as the map draws it (its symbol in white on its colour), for a preview. With
 * `label` it is an image named by it; without, decoration beside text that names the unit.
 */
export function UnitMarker({ unit, size = 36, label }: { unit: MarkerUnit; size?: number; label?: string }) {
  const { color, symbol } = markerOf(unit);
  const Icon = symbolIcon(symbol);
  return (
    <span
      className="ul-marker"
      style={{ background: color, width: size, height: size }}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      data-marker-symbol={symbol}
    >
      <Icon size={Math.round(size * 0.56)} stroke={2} color="#ffffff" aria-hidden />
    </span>
  );
}
