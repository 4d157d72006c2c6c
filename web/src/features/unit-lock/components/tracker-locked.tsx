/**
 * What the browser shows where a unit is locked by someone else (423 TrackerIsLocked, or a map
 * unit carrying `lockedBy`): that it is locked and by whom, instead of its position or history.
 */
import { Alert, Text } from '@mantine/core';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api-client';

/** The locker's name when `error` is a 423 TrackerIsLocked, else null. */
export function lockedByOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 423 || error.key !== 'TrackerIsLocked') return null;
  const errors = (error.body as { errors?: { lockedBy?: unknown } } | null)?.errors;
  return typeof errors?.lockedBy === 'string' ? errors.lockedBy : '';
}

export function TrackerLocked({ lockedBy }: { lockedBy: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" icon={<IconLock size={18} aria-hidden />} role="status">
      <Text size="sm" fw={700}>
        {t('TrackerIsLockedTitle')}
      </Text>
      <Text size="sm">{t('TrackerIsLocked', { lockedBy })}</Text>
    </Alert>
  );
}
