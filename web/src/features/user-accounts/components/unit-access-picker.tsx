/**
 * Which units an ordinary user sees: the shared unit picker (features/units/components/unit-picker.tsx)
 * with "select all matching".
 */
import { useTranslation } from 'react-i18next';
import { UnitPicker } from '../../units/components/unit-picker';

interface Props {
  value: readonly string[];
  onChange: (imeis: string[]) => void;
  error?: string | undefined;
}

export function UnitAccessPicker({ value, onChange, error }: Props) {
  const { t } = useTranslation();
  return <UnitPicker label={t('UaUnitsLabel')} value={value} onChange={onChange} selectAllMatching error={error} testId="user-units" />;
}
