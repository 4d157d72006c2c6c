/**
 * Modal 4 of spec section 2: the units whose alarms a receiver gets, in tabs GPS and BLE; it always
 * opens on the GPS tab. The GPS units are the shared unit picker (server-side search, pages, "select
 * all matching" of the units that are not locked); a locked unit is neither added nor removed, as the
 * server's rule has it. The receiver's own units and the BLE sensors come from the receiver's units.
 */
import { Alert, Button, Checkbox, Group, Modal, Stack, Table, Tabs, Text, TextInput, VisuallyHidden } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmReceiver } from '../../../../../shared/schemas/alarms';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { errorMessage } from '../../../app/api-client';
import { PageLoader } from '../../../ui/page-loader';
import { UnitPicker } from '../../units/components/unit-picker';
import { alarmKeys, assignUnits, useReceiverUnits } from '../api/alarms-api';

interface Props {
  receiver: AlarmReceiver | null;
  onClose: () => void;
  onSaved: (messageKey: string) => void;
}

export function SelectUnitsModal({ receiver, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={receiver !== null} onClose={onClose} title={t('AlarmUnitsTitle')} size="lg" closeButtonProps={{ 'aria-label': t('AlarmClose') }}>
      {receiver ? <UnitsBody key={receiver.id} receiver={receiver} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function UnitsBody({ receiver, onClose, onSaved }: { receiver: AlarmReceiver; onClose: () => void; onSaved: (key: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const units = useReceiverUnits(receiver.id);
  const [tab, setTab] = useState<string | null>('gps');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string[] | null>(null);
  const [selectedBle, setSelectedBle] = useState<Set<string> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (units.data && selected === null) setSelected(units.data.gps.filter((u) => u.IsSelected === 1).map((u) => u.Imei));
    if (units.data && selectedBle === null) setSelectedBle(new Set(units.data.ble.filter((u) => u.IsSelected === 1).map((u) => u.id)));
  }, [units.data, selected, selectedBle]);

  const ble = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = units.data?.ble ?? [];
    return q ? all.filter((u) => u.Name.toLowerCase().includes(q) || u.SerialNumber.toLowerCase().includes(q)) : all;
  }, [units.data, query]);
  // A locked unit keeps its state (the server's rule): it can be neither added nor removed.
  const lockedChosen = useMemo(() => new Set((units.data?.gps ?? []).filter((u) => u.isLocked && u.IsSelected === 1).map((u) => u.Imei)), [units.data]);
  const knownNames = useMemo(() => new Map((units.data?.gps ?? []).filter((u) => u.IsSelected === 1).map((u) => [u.Imei, u.Name])), [units.data]);
  const locked = useCallback((unit: UnitListItem) => (unit.lockedBy !== undefined ? t('AlarmUnitsLockedHint') : null), [t]);

  const chosen = selected ?? [];
  const chosenBle = selectedBle ?? new Set<string>();
  const toggleBle = (id: string, on: boolean) => {
    const next = new Set(chosenBle);
    if (on) next.add(id);
    else next.delete(id);
    setSelectedBle(next);
  };

  const save = useMutation({
    mutationFn: () =>
      assignUnits({
        receiver_id: receiver.id,
        terminals: [
          ...chosen.map((terminal_id) => ({ terminal_id, device_type: 'gps' as const })),
          ...[...chosenBle].map((terminal_id) => ({ terminal_id, device_type: 'ble' as const })),
        ],
      }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: alarmKeys.receivers, exact: true }),
        queryClient.removeQueries({ queryKey: alarmKeys.units(receiver.id) }),
      ]);
      onSaved('UnitsSelectedSuccessMsg');
    },
    onError: (error) => setFailure(errorMessage(error)),
  });

  if (units.isPending) return <PageLoader />;
  if (units.isError) {
    return (
      <Alert color="red" role="alert">
        {t('AlarmUnitsLoadFailed')}
      </Alert>
    );
  }

  return (
    <Stack gap="sm">
      <Text size="sm">{t('AlarmUnitsFor', { name: receiver.name })}</Text>
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="gps">{t('AlarmUnitsTabGps')}</Tabs.Tab>
          <Tabs.Tab value="ble">{t('AlarmUnitsTabBle')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="gps" pt="sm">
          <UnitPicker
            label={t('AlarmUnitsTabGps')}
            value={chosen}
            onChange={setSelected}
            knownNames={knownNames}
            unavailable={locked}
            fixed={lockedChosen}
            selectAllMatching
            testId="alarm-receiver-units"
          />
        </Tabs.Panel>
        <Tabs.Panel value="ble" pt="sm">
          <TextInput
            aria-label={t('AlarmUnitsSearch')}
            placeholder={t('AlarmUnitsSearch')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            type="search"
          />
          {ble.length === 0 ? (
            <Text c="dimmed" size="sm" py="md">
              {t('AlarmUnitsNoBle')}
            </Text>
          ) : (
            <Table verticalSpacing={6} aria-label={t('AlarmUnitsTabBle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <VisuallyHidden>{t('AlarmUnitsTabBle')}</VisuallyHidden>
                  </Table.Th>
                  <Table.Th scope="col">{t('AlarmUnitsColName')}</Table.Th>
                  <Table.Th scope="col">{t('AlarmUnitsColSerial')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {ble.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>
                      <Checkbox aria-label={`${s.Name} ${s.SerialNumber}`} checked={chosenBle.has(s.id)} onChange={(e) => toggleBle(s.id, e.currentTarget.checked)} />
                    </Table.Td>
                    <Table.Td>{s.Name}</Table.Td>
                    <Table.Td>{s.SerialNumber}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Tabs.Panel>
      </Tabs>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" role="status">
          {t('AlarmUnitsSelected', { count: chosen.length + chosenBle.size })}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            {t('Save')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
