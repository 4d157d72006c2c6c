/**
 * What the browser shows where a unit is locked by someone else (423 TrackerIsLocked, or a map
 * unit carrying `lockedBy`): that it is locked and by whom, instead of its position or history.
 * Every page that loads a unit's data shows a refused load through `LockedOrFailed`, so a locked
 * unit reads the same on the map, the trip log, the unit editor, history, events and commands.
 */
import { Alert, Text } from '@mantine/core';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/api-client';

/** The locker's name when `error` is a 423 TrackerIsLocked, else null. */
export function lockedByOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 423 || error.key !== 'TrackerIsLocked') return null;
  const errors = (error.body as { errors?: { lockedBy?: unknown } } | null)?.errors;
  return typeof errors?.lockedBy === 'string' ? errors.lockedBy : '';
}

/** The locker's name when any of `errors` is a 423 TrackerIsLocked, else null. */
export function lockedByAmong(...errors: unknown[]): string | null {
  for (const error of errors) {
    const lockedBy = lockedByOf(error);
    if (lockedBy !== null) return lockedBy;
  }
  return null;
}

/**
 * A unit's data that could not be loaded or changed: the lock, as the map shows it, when the unit
 * is locked by someone else; any other failure shows `children` (the page's own error and retry).
 */
export function LockedOrFailed({ error, children }: { error: unknown; children: ReactNode }) {
  const lockedBy = lockedByOf(error);
  return lockedBy === null ? children : <TrackerLocked lockedBy={lockedBy} />;
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
