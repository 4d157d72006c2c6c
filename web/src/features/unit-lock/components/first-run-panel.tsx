/**
 * What a unit whose tracker has not reported yet shows instead of a bare IMEI (a newly registered
 * account, a unit just added): name it (the unit editor), power the tracker (it reports within
 * minutes), and the marker it will have on the map. Other units still waiting are named below.
 */
import '../unit-lock.css';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { paths } from '../../../app/paths';
import { UnitMarker } from './unit-marker';

export type WaitingUnit = Pick<RealtimeUnit, 'imei' | 'name' | 'color' | 'symbol' | 'vehicleType'>;

/** The editor of a unit (/user/edit-terminal?imei=...). */
export const unitEditorPath = (imei: string): string => `${paths.editTerminal}?imei=${encodeURIComponent(imei)}`;

/** Units the panel is about: no position yet, and not hidden by someone else's access lock. */
export function waitingUnits<U extends { state: unknown; lockedBy?: string | undefined }>(units: readonly U[]): U[] {
  return units.filter((u) => u.state === null && u.lockedBy === undefined);
}

export function FirstRunPanel({ units }: { units: readonly WaitingUnit[] }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [first, ...rest] = units;
  if (!first) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId} data-testid="first-run-panel">
      <Stack gap="sm">
        <Title order={2} size="h5" id={headingId}>
          {t('FirstRunTitle', { name: first.name })}
        </Title>
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
