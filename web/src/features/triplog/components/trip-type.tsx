import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TripType } from '../../../../../shared/schemas/trips';

export const tripTypeLabelKeys: Readonly<Record<TripType, string>> = {
  business: 'TripTypeBusiness',
  private: 'TripTypePrivate',
  other: 'TripTypeOther',
};

/** Colours that keep their text readable on every brand's theme (each is a Mantine palette). */
export const tripTypeColors: Readonly<Record<TripType, string>> = {
  business: 'blue',
  private: 'grape',
  other: 'gray',
};

export function TripTypeBadge({ type }: { type: TripType }) {
  const { t } = useTranslation();
  return (
    <Badge color={tripTypeColors[type]} variant="light" radius="sm" tt="none">
      {t(tripTypeLabelKeys[type])}
    </Badge>
  );
}
