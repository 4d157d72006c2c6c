/**
 * The geofence list (/user/geofences): searchable by name and unit names; name, radius, units,
 * alarm, active and theft mode, a table on wide screens and cards on phones; edit, and delete
 * after a confirmation.
 */
import '../geofences.css';
import { ActionIcon, Alert, Anchor, Badge, Button, Card, CloseButton, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { notifications } from '@mantine/notifications';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconMapPin from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSearchQuery } from '../../../app/use-search-query';
import type { Geofence } from '../../../../../shared/schemas/geofences';
import { errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { useDeleteGeofence, useGeofences } from '../api/geofence-api';
import { filterGeofences } from '../geofence-list';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

export const editPathOf = (id: string) => `${paths.addEditGeofence}/${encodeURIComponent(id)}`;

export function GeofencesPage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const geofences = useGeofences();
  const { query, deferred, changeQuery } = useSearchQuery();
  const [deleting, setDeleting] = useState<Geofence | null>(null);
  const shown = useMemo(() => filterGeofences(geofences.data ?? [], deferred), [geofences.data, deferred]);


  const addButton = (
    <Button component={Link} to={paths.addEditGeofence} leftSection={<IconPlus size={18} aria-hidden />}>
      {t('GeofenceAdd')}
    </Button>
  );

  if (geofences.data === undefined) {
    if (!geofences.isError) return <PageLoader />;
    return (
      <LockedOrFailed error={geofences.error}>
<Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} title={t('GeofenceLoadFailed')} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(geofences.error)}</span>
          <Button variant="default" size="xs" onClick={() => void geofences.refetch()} loading={geofences.isFetching}>
            {t('TryAgain')}
          </Button>
        </Stack>
      </Alert>
</LockedOrFailed>
    );
  }
  if (geofences.data.length === 0) {
    return (
      <MessageState icon={<IconMapPin size={30} stroke={1.6} />} title={t('GeofenceNoneTitle')} action={addButton}>
        {t('GeofenceNone')}
      </MessageState>
    );
  }

  const metres = new Intl.NumberFormat(locale, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 });
  const onOff = (on: boolean) => (
    <Badge variant={on ? 'filled' : 'outline'} color={on ? 'teal.9' : 'gray.7'} radius="sm">
      {on ? t('GeofenceOn') : t('GeofenceOff')}
    </Badge>
  );
  const unitNames = (g: Geofence) => (g.units.length ? g.units.map((u) => u.name).join(', ') : t('GeofenceNoUnits'));
  const actions = (g: Geofence) => (
    <Group gap={4} wrap="nowrap">
      <ActionIcon component={Link} to={editPathOf(g.id)} variant="subtle" aria-label={t('GeofenceEditLabel', { name: g.name })}>
        <IconPencil size={18} aria-hidden />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red" onClick={() => setDeleting(g)} aria-label={t('GeofenceDeleteLabel', { name: g.name })}>
        <IconTrash size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <TextInput
          label={t('GeofenceSearch')}
          value={query}
          onChange={(event) => changeQuery(event.currentTarget.value)}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={query ? <CloseButton aria-label={t('GeofenceClearSearch')} onClick={() => changeQuery('')} /> : null}
          style={{ flex: '1 1 260px', maxWidth: 480 }}
          autoComplete="off"
          spellCheck={false}
        />
        {addButton}
      </Group>
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {shown.length === 0 ? t('GeofenceNoMatch', { q: deferred.trim() }) : t('GeofenceCount', { count: shown.length })}
      </Text>
      {shown.length > 0 ? (
        <>
          <Table.ScrollContainer minWidth={720} className="geo-list-table">
            <Table striped highlightOnHover verticalSpacing="xs" data-testid="geofence-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('GeofenceColName')}</Table.Th>
                  <Table.Th scope="col" ta="right">
                    {t('GeofenceColRadius')}
                  </Table.Th>
                  <Table.Th scope="col">{t('GeofenceColUnits')}</Table.Th>
                  <Table.Th scope="col">{t('GeofenceColAlarm')}</Table.Th>
                  <Table.Th scope="col">{t('GeofenceColActive')}</Table.Th>
                  <Table.Th scope="col">{t('GeofenceColTheftMode')}</Table.Th>
                  <Table.Th scope="col">
                    <span className="geo-visually-hidden">{t('GeofenceColActions')}</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((g) => (
                  <Table.Tr key={g.id} data-testid="geofence-row">
                    <Table.Th scope="row" fw={600}>
                      <Anchor component={Link} to={editPathOf(g.id)} fw={600}>
                        {g.name}
                      </Anchor>
                    </Table.Th>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {metres.format(g.radius)}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={g.units.length ? undefined : 'dimmed'}>
                        {unitNames(g)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{onOff(g.alarm)}</Table.Td>
                    <Table.Td>{onOff(g.active)}</Table.Td>
                    <Table.Td>{onOff(g.theftMode)}</Table.Td>
                    <Table.Td>{actions(g)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack gap="sm" component="ul" className="geo-list-cards" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('GeofencesTitle')}>
            {shown.map((g) => (
              <li key={g.id}>
                <Card withBorder padding="sm" radius="md" data-testid="geofence-card">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={editPathOf(g.id)} fw={600}>
                        {g.name}
                      </Anchor>
                      <Text size="sm">
                        {t('GeofenceColRadius')}: {metres.format(g.radius)}
                      </Text>
                      <Text size="sm" c={g.units.length ? undefined : 'dimmed'}>
                        {t('GeofenceColUnits')}: {unitNames(g)}
                      </Text>
                    </Stack>
                    {actions(g)}
                  </Group>
                  <Group gap="md" mt="xs">
                    <Group gap={4}>
                      <Text size="xs">{t('GeofenceColAlarm')}</Text>
                      {onOff(g.alarm)}
                    </Group>
                    <Group gap={4}>
                      <Text size="xs">{t('GeofenceColActive')}</Text>
                      {onOff(g.active)}
                    </Group>
                    <Group gap={4}>
                      <Text size="xs">{t('GeofenceColTheftMode')}</Text>
                      {onOff(g.theftMode)}
                    </Group>
                  </Group>
                </Card>
              </li>
            ))}
          </Stack>
        </>
      ) : null}
      <DeleteGeofenceModal geofence={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

/** Asks before a geofence is deleted; says so when it is, or why it could not be. */
export function DeleteGeofenceModal({ geofence, onClose, onDeleted }: { geofence: Geofence | null; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const del = useDeleteGeofence();
  const close = () => {
    del.reset();
    onClose();
  };
  return (
    <ConfirmDeleteModal
      opened={geofence !== null}
      title={t('GeofenceDeleteTitle')}
      message={geofence ? t('GeofenceDeleteText', { name: geofence.name }) : ''}
      confirmLabel={t('GeofenceDelete')}
      cancelLabel={t('Cancel')}
      closeLabel={t('GeofenceClose')}
      pending={del.isPending}
      error={del.isError ? errorMessage(del.error) : null}
      onCancel={close}
      onConfirm={() =>
        geofence &&
        del.mutate(geofence.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: t('GeofenceDeleted', { name: geofence.name }), withBorder: true, closeButtonProps: { 'aria-label': t('GeofenceClose') } });
            close();
            onDeleted?.();
          },
        })
      }
      confirmTestId="geofence-delete-confirm"
    />
  );
}
