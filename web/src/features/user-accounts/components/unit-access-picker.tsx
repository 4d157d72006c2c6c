/**
 * Which units an ordinary user sees: the shared unit picker (features/units/components/unit-picker.tsx)
 * with "select all matching"; the units the users tab already knows name the chosen ones at once.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { UnitPicker } from '../../units/components/unit-picker';
import type { PickableUnit } from '../user-list';

interface Props {
  units: readonly PickableUnit[];
  value: readonly string[];
  onChange: (imeis: string[]) => void;
  error?: string | undefined;
}

export function UnitAccessPicker({ units, value, onChange, error }: Props) {
  const { t } = useTranslation();
  const knownNames = useMemo(() => new Map(units.map((u) => [u.imei, u.name])), [units]);
  return <UnitPicker label={t('UaUnitsLabel')} value={value} onChange={onChange} knownNames={knownNames} selectAllMatching error={error} testId="user-units" />;
}
