/**
 * A unit's status as the map shows it: the coloured dot of its marker (hollow when offline), or the
 * green heading arrow of a moving one, with the status's name for screen readers and on hover where
 * it stands alone.
 */
import { memo, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS, type UnitStatus } from '../../../../../shared/unit-status';
import { ARROW_PATH } from '../map-images';

export const STATUS_LABEL_KEYS = {
  moving: 'MapStatusMoving',
  idling: 'MapStatusIdling',
  parked: 'MapStatusParked',
  offline: 'MapStatusOffline',
} as const satisfies Record<UnitStatus, string>;

/** The mark alone, hidden from screen readers: for use next to the status's name. */
export function StatusDot({ status }: { status: UnitStatus }) {
  if (status === 'moving') {
    return (
      <svg className="rt-status-arrow" width="12" height="11" viewBox="0 0 14 12" aria-hidden>
        <path d={ARROW_PATH} fill={STATUS_COLORS.moving} stroke="#ffffff" strokeWidth="1.5" strokeLinejoin="round" paintOrder="stroke" />
      </svg>
    );
  }
  return <span className="rt-status-dot" data-status={status} style={{ '--rt-status-color': STATUS_COLORS[status] } as CSSProperties} aria-hidden />;
}

/** The dot standing for the status's name: an image named after it. */
export const StatusIcon = memo(function StatusIcon({ status }: { status: UnitStatus }) {
  const { t } = useTranslation();
  const label = t(STATUS_LABEL_KEYS[status]);
  return (
    <span role="img" aria-label={label} title={label} className="rt-status-icon">
      <StatusDot status={status} />
    </span>
  );
});
