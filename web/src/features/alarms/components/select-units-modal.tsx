/**
 * Modal 4 of spec section 2: the units whose alarms a receiver gets. Search, tabs GPS and BLE,
 * select all (of the units shown that are not locked), GPS rows with name and IMEI, locked GPS units
 * disabled. It always opens on the GPS tab.
 */
import { Alert, Badge, Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Tabs, Text, TextInput, VisuallyHidden } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmReceiver } from '../../../../../shared/schemas/alarms';
import { errorMessage } from '../../../app/api-client';
import { PageLoader } from '../../../ui/page-loader';
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
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [selectedBle, setSelectedBle] = useState<Set<string> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (units.data && selected === null) setSelected(new Set(units.data.gps.filter((u) => u.IsSelected === 1).map((u) => u.Imei)));
    if (units.data && selectedBle === null) setSelectedBle(new Set(units.data.ble.filter((u) => u.IsSelected === 1).map((u) => u.id)));
  }, [units.data, selected, selectedBle]);

  const gps = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = units.data?.gps ?? [];
    return q ? all.filter((u) => u.Name.toLowerCase().includes(q) || u.Imei.includes(q)) : all;
  }, [units.data, query]);
  const ble = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = units.data?.ble ?? [];
    return q ? all.filter((u) => u.Name.toLowerCase().includes(q) || u.SerialNumber.toLowerCase().includes(q)) : all;
  }, [units.data, query]);

  const chosen = selected ?? new Set<string>();
  const chosenBle = selectedBle ?? new Set<string>();
  const toggleBle = (id: string, on: boolean) => {
    const next = new Set(chosenBle);
    if (on) next.add(id);
    else next.delete(id);
    setSelectedBle(next);
  };
  const selectable = gps.filter((u) => !u.isLocked);
  const allChosen = selectable.length > 0 && selectable.every((u) => chosen.has(u.Imei));
  const someChosen = selectable.some((u) => chosen.has(u.Imei));

  const toggle = (imei: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(imei);
    else next.delete(imei);
    setSelected(next);
  };
  const toggleAll = (on: boolean) => {
    const next = new Set(chosen);
    for (const u of selectable) {
      if (on) next.add(u.Imei);
      else next.delete(u.Imei);
    }
    setSelected(next);
  };

  const save = useMutation({
    mutationFn: () =>
      assignUnits({
        receiver_id: receiver.id,
        terminals: [
          ...[...chosen].map((terminal_id) => ({ terminal_id, device_type: 'gps' as const })),
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
      <TextInput
        aria-label={t('AlarmUnitsSearch')}
        placeholder={t('AlarmUnitsSearch')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        type="search"
      />
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
          {gps.length === 0 ? (
            <Text c="dimmed" size="sm" py="md">
              {t('AlarmUnitsNoGps')}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={360} type="auto">
              <Table verticalSpacing={6} aria-label={t('AlarmUnitsTabGps')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={t('AlarmUnitsSelectAll')}
                        checked={allChosen}
                        indeterminate={!allChosen && someChosen}
                        onChange={(e) => toggleAll(e.currentTarget.checked)}
                        disabled={selectable.length === 0}
                      />
                    </Table.Th>
                    <Table.Th scope="col">{t('AlarmUnitsColName')}</Table.Th>
                    <Table.Th scope="col">{t('AlarmUnitsColImei')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {gps.map((u) => (
                    <Table.Tr key={u.Imei}>
                      <Table.Td>
                        <Checkbox
                          aria-label={u.Name}
                          checked={chosen.has(u.Imei)}
                          disabled={u.isLocked}
                          onChange={(e) => toggle(u.Imei, e.currentTarget.checked)}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="wrap">
                          <span>{u.Name}</span>
                          {u.isLocked ? (
                            <Badge size="sm" color="gray" variant="light" title={t('AlarmUnitsLockedHint')}>
                              {t('AlarmUnitsLocked')}
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{u.Imei}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="ble" pt="sm">
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
          {t('AlarmUnitsSelected', { count: chosen.size + chosenBle.size })}
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
