/**
 * What a unit whose tracker has not reported yet shows instead of a bare IMEI (a newly registered
 * account, a unit just added): name it (the unit editor), power the tracker (it reports within
 * minutes), and the marker it will have on the map. Other units still waiting are named below.
 * Above a list (the map's, the units page's) it is for administrators, who add and name units, and
 * each of them can hide it: hidden for those units, it comes back for a unit added later.
 */
import '../unit-lock.css';
import { Button, CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { paths } from '../../../app/paths';
import { storage } from '../../../app/preferences';
import { getSessionUser } from '../../../app/session';
import { useSettings } from '../../auth/api/settings';
import { UnitMarker } from './unit-marker';

export type WaitingUnit = Pick<RealtimeUnit, 'imei' | 'name' | 'color' | 'symbol' | 'vehicleType'>;

/** The editor of a unit (/user/edit-terminal?imei=...). */
export const unitEditorPath = (imei: string): string => `${paths.editTerminal}?imei=${encodeURIComponent(imei)}`;

/** Units the panel is about: no position yet, and not hidden by someone else's access lock. */
export function waitingUnits<U extends { state: unknown; lockedBy?: string | undefined }>(units: readonly U[]): U[] {
  return units.filter((u) => u.state === null && u.lockedBy === undefined);
}

const dismissedKey = (userId: string) => `firstRun.hidden.${userId}`;

/** The IMEIs whose panel this user hid (localStorage, per user on a shared browser). */
export function hiddenFirstRunUnits(stored: string | null): Set<string> {
  try {
    const list: unknown = JSON.parse(stored ?? '[]');
    return new Set(Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * The waiting units a list's panel names: for administrators only, without the ones this user hid;
 * `hide` hides the panel for the units it names now.
 */
export function useFirstRunNotice<U extends WaitingUnit>(waiting: readonly U[]): { units: U[]; hide: () => void } {
  const isAdmin = useSettings().data?.is_admin === true;
  const userId = getSessionUser()?.ID ?? '';
  const [hidden, setHidden] = useState(() => hiddenFirstRunUnits(storage.get(dismissedKey(userId))));
  const units = useMemo(() => (isAdmin ? waiting.filter((u) => !hidden.has(u.imei)) : []), [isAdmin, waiting, hidden]);
  const hide = useCallback(() => {
    const next = new Set([...hidden, ...units.map((u) => u.imei)]);
    storage.set(dismissedKey(userId), JSON.stringify([...next]));
    setHidden(next);
  }, [hidden, units, userId]);
  return { units, hide };
}

export function FirstRunPanel({ units, onHide }: { units: readonly WaitingUnit[]; onHide?: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [first, ...rest] = units;
  if (!first) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId} data-testid="first-run-panel">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h5" id={headingId}>
            {t('FirstRunTitle', { name: first.name })}
          </Title>
          {onHide ? <CloseButton onClick={onHide} aria-label={t('FirstRunHide')} /> : null}
        </Group>
        <Text size="sm">{t('FirstRunIntro')}</Text>
        <ol className="ul-steps">
          <li>
            <Text size="sm" fw={600} component="span">
              {t('FirstRunStepName')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('FirstRunStepNameText')}
            </Text>
            <Button component={Link} to={unitEditorPath(first.imei)} size="xs" mt={6} leftSection={<IconPencil size={14} aria-hidden />}>
              {t('FirstRunStepName')}
            </Button>
          </li>
          <li>
            <Text size="sm" fw={600} component="span">
              {t('FirstRunStepPower')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('FirstRunStepPowerText')}
            </Text>
          </li>
          <li>
            <Text size="sm" fw={600} component="span">
              {t('FirstRunStepMap')}
            </Text>
            <Group gap="sm" wrap="nowrap" mt={4}>
              <Text size="sm" c="dimmed">
                {t('FirstRunStepMapText')}
              </Text>
              <UnitMarker unit={first} label={t('FirstRunMarkerLabel', { name: first.name })} />
            </Group>
          </li>
        </ol>
        {rest.length ? (
          <Text size="sm" c="dimmed">
            {t('FirstRunMore', { names: rest.map((u) => u.name).join(', ') })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
