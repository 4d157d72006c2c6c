/**
 * /administration/configure-alarm-receiver (spec sections 2, 3, 5, 6, 8 and 9): who gets the
 * alarms of the account's units. Search over name, e-mail and phone; New Alarm Receiver; SMS
 * credits; a table sortable by receiver, e-mail and phone (the phone column on subsite 0 only) with
 * Select unit, the security and function checkboxes (saved at once), edit and delete; below it the
 * alerts' language and time zone and which events are security and function alarms. The five
 * modals: what to add, the form, delete, select units, and the existing-user picker.
 */
import { ActionIcon, Alert, Button, Checkbox, Group, Modal, Paper, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { notifications } from '@mantine/notifications';
import IconBellRinging from '@tabler/icons-react/dist/esm/icons/IconBellRinging.mjs';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconChevronUp from '@tabler/icons-react/dist/esm/icons/IconChevronUp.mjs';
import IconMessage from '@tabler/icons-react/dist/esm/icons/IconMessage.mjs';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconSelector from '@tabler/icons-react/dist/esm/icons/IconSelector.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmMember, AlarmReceiver } from '../../../../../shared/schemas/alarms';
import { errorMessage } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { useLoadedSettings } from '../../../app/guards';
import { parseLanguage } from '../../../app/preferences';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { defaultPhoneCountry } from '../../../../../shared/validators/phone';
import { alarmKeys, deleteReceiver, useAlarmReceivers, useToggleAlarm } from '../api/alarms-api';
import { memberValues, newReceiverValues, receiverValues, type AlarmFormValues } from '../alarm-form-model';
import { matchesReceiver, nextSort, phoneText, sortReceivers, type AlarmSort, type AlarmSortColumn } from '../alarm-list';
import { AlarmClassesHelp } from '../components/alarm-classes-help';
import { EmailText } from '../components/email-text';
import { AlarmReceiverFormModal } from '../components/alarm-receiver-form-modal';
import { AlertSettings } from '../components/alert-settings';
import { MemberPickerModal } from '../components/member-picker-modal';
import { SelectUnitsModal } from '../components/select-units-modal';

type Dialog =
  | { kind: 'none' }
  | { kind: 'choice' }
  | { kind: 'picker' }
  | { kind: 'form'; values: AlarmFormValues; editMode: boolean; canPush: boolean }
  | { kind: 'delete'; receiver: AlarmReceiver }
  | { kind: 'units'; receiver: AlarmReceiver };

const sortLabels: Record<AlarmSortColumn, string> = { name: 'AlarmColReceiver', email: 'AlarmColEmail', phone: 'AlarmColPhone' };

export function AlarmReceiversPage() {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const brand = useBrand();
  const settings = useLoadedSettings();
  const phoneShown = brand.id === 0;
  const receivers = useAlarmReceivers();
  const toggle = useToggleAlarm();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<AlarmSort>({ column: 'name', desc: false });
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  // The form's values while the picker is open (it returns to the form with a user).
  const close = () => setDialog({ kind: 'none' });
  const done = (key: string) => {
    close();
    notifications.show({ color: 'green', message: t(key), closeButtonProps: { 'aria-label': t('AlarmClose') } });
  };

  // The viewer's country: numbers in it show in national format, and a new receiver's starts there.
  const country = defaultPhoneCountry(lang);

  const rows = useMemo(() => {
    const all = receivers.data?.alarmReceivers ?? [];
    return sortReceivers(all.filter((r) => matchesReceiver(r, query, country)), sort, intlLocale(lang));
  }, [receivers.data, query, sort, lang, country]);

  const onToggle = (receiver: AlarmReceiver, type: 'security' | 'function', on: boolean) => {
    toggle.mutate(
      { receiverId: receiver.id, type, state: on ? 1 : 0 },
      { onError: (error) => notifications.show({ color: 'red', message: errorMessage(error), closeButtonProps: { 'aria-label': t('AlarmClose') } }) },
    );
  };

  const openEdit = (receiver: AlarmReceiver) =>
    setDialog({ kind: 'form', values: receiverValues(receiver, country), editMode: true, canPush: receiver.has_push_id });
  const pick = (member: AlarmMember) => setDialog({ kind: 'form', values: memberValues(member, country), editMode: true, canPush: member.HasPushId });

  const SortHeader = ({ column }: { column: AlarmSortColumn }) => {
    const active = sort.column === column;
    const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
    return (
      <Table.Th scope="col" aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
        <UnstyledButton onClick={() => setSort(nextSort(sort, column))} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700, textAlign: 'start' }}>
          {t(sortLabels[column])}
          <Icon size={16} stroke={1.8} aria-hidden />
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <TextInput
          aria-label={t('AlarmSearchLabel')}
          placeholder={t('AlarmSearchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          type="search"
          w={{ base: '100%', sm: 320 }}
        />
        <Group gap="md" wrap="wrap">
          {receivers.data ? (
            <Group gap={6} wrap="nowrap">
              <IconMessage size={18} aria-hidden />
              <Text size="sm" fw={600}>
                {t('AlarmSmsCredits', { count: receivers.data.SmsCredits })}
              </Text>
            </Group>
          ) : null}
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'choice' })}>
            {t('AlarmNewReceiver')}
          </Button>
        </Group>
      </Group>
      {/* What functions/events/deliver-alert.ts does without credits; SMS alarms go out on the brand with phone numbers only. */}
      {receivers.data && phoneShown ? (
        <Text size="sm" c={receivers.data.SmsCredits === 0 ? 'red.9' : 'dimmed'} fw={receivers.data.SmsCredits === 0 ? 600 : undefined} data-testid="alarm-sms-at-zero">
          {t('AlarmSmsAtZero')}
        </Text>
      ) : null}

      {receivers.isPending ? (
        <PageLoader />
      ) : receivers.isError ? (
        <Alert color="red" role="alert">
          <Stack gap="xs" align="flex-start">
            <span>{t('AlarmLoadFailed')}</span>
            <Button size="xs" variant="default" onClick={() => void receivers.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : receivers.data.alarmReceivers.length === 0 ? (
        <MessageState icon={<IconBellRinging size={30} stroke={1.6} />} title={t('AlarmNoReceivers')}>
          {t('AlarmNoReceiversHint')}
        </MessageState>
      ) : (
        <>
          {/* Phones get one card per receiver; wider screens the table. */}
          <Stack gap="sm" hiddenFrom="sm">
            <Group gap={6} wrap="wrap" aria-label={t('AlarmSortLabel')} role="group">
              {(phoneShown ? (['name', 'email', 'phone'] as const) : (['name', 'email'] as const)).map((column) => {
                const active = sort.column === column;
                const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
                return (
                  <Button
                    key={column}
                    size="compact-sm"
                    variant={active ? 'light' : 'default'}
                    rightSection={<Icon size={14} aria-hidden />}
                    onClick={() => setSort(nextSort(sort, column))}
                    aria-pressed={active}
                  >
                    {t(sortLabels[column])}
                  </Button>
                );
              })}
            </Group>
            {rows.length === 0 ? (
              <Text c="dimmed" ta="center" py="md">
                {t('AlarmNoMatches')}
              </Text>
            ) : (
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
                {rows.map((r) => (
                  <Paper component="li" key={r.id} withBorder radius="md" p="sm">
                    <Stack gap={6}>
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Text fw={700}>{t('AlarmUnitCount', { name: r.name, count: r.total_units + r.total_ble_units })}</Text>
                        <RowActions receiver={r} onEdit={openEdit} onDelete={(receiver) => setDialog({ kind: 'delete', receiver })} />
                      </Group>
                      {r.email ? (
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {r.email}
                        </Text>
                      ) : null}
                      {phoneShown && r.phone ? <Text size="sm">{phoneText(r, country)}</Text> : null}
                      <Group gap="md" wrap="wrap" align="center">
                        <Checkbox label={t('AlarmColSecurity')} aria-label={t('AlarmSecurityFor', { name: r.name })} checked={r.security_alarm === 1} onChange={(e) => onToggle(r, 'security', e.currentTarget.checked)} />
                        <Checkbox label={t('AlarmColFunction')} aria-label={t('AlarmFunctionFor', { name: r.name })} checked={r.function_alarm === 1} onChange={(e) => onToggle(r, 'function', e.currentTarget.checked)} />
                        <Button size="xs" variant="light" ml="auto" onClick={() => setDialog({ kind: 'units', receiver: r })} aria-label={t('AlarmSelectUnitFor', { name: r.name })}>
                          {t('AlarmSelectUnit')}
                        </Button>
                      </Group>
                    </Stack>
                  </Paper>
                ))}
              </Stack>
            )}
          </Stack>
          <Paper withBorder radius="md" visibleFrom="sm">
          <div role="region" aria-label={t('AlarmReceiver')} tabIndex={0} style={{ overflowX: 'auto' }}>
            <Table verticalSpacing="sm" horizontalSpacing="sm" miw={phoneShown ? 860 : 720} aria-label={t('AlarmReceiver')}>
              <Table.Thead>
                <Table.Tr>
                  <SortHeader column="name" />
                  <SortHeader column="email" />
                  {phoneShown ? <SortHeader column="phone" /> : null}
                  <Table.Th scope="col">{t('AlarmColUnits')}</Table.Th>
                  <Table.Th scope="col">{t('AlarmColSecurity')}</Table.Th>
                  <Table.Th scope="col">{t('AlarmColFunction')}</Table.Th>
                  <Table.Th scope="col">{t('AlarmColAction')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={phoneShown ? 7 : 6}>
                      <Text c="dimmed" ta="center" py="md">
                        {t('AlarmNoMatches')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td fw={600}>{t('AlarmUnitCount', { name: r.name, count: r.total_units + r.total_ble_units })}</Table.Td>
                      <Table.Td>{r.email ? <EmailText email={r.email} /> : null}</Table.Td>
                      {phoneShown ? <Table.Td style={{ whiteSpace: 'nowrap' }}>{phoneText(r, country)}</Table.Td> : null}
                      <Table.Td>
                        <Button size="xs" variant="light" onClick={() => setDialog({ kind: 'units', receiver: r })} aria-label={t('AlarmSelectUnitFor', { name: r.name })}>
                          {t('AlarmSelectUnit')}
                        </Button>
                      </Table.Td>
                      <Table.Td>
                        <Checkbox
                          aria-label={t('AlarmSecurityFor', { name: r.name })}
                          checked={r.security_alarm === 1}
                          onChange={(e) => onToggle(r, 'security', e.currentTarget.checked)}
                        />
                      </Table.Td>
                      <Table.Td>
                        <Checkbox
                          aria-label={t('AlarmFunctionFor', { name: r.name })}
                          checked={r.function_alarm === 1}
                          onChange={(e) => onToggle(r, 'function', e.currentTarget.checked)}
                        />
                      </Table.Td>
                      <Table.Td>
                        <RowActions receiver={r} onEdit={openEdit} onDelete={(receiver) => setDialog({ kind: 'delete', receiver })} />
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </div>
        </Paper>
        </>
      )}

      <AlertSettings parentId={settings.ParentID} />
      <AlarmClassesHelp />

      <Modal opened={dialog.kind === 'choice'} onClose={close} title={t('AlarmAddTitle')} closeButtonProps={{ 'aria-label': t('AlarmClose') }}>
        <Stack gap="md">
          <Text>{t('AlarmAddQuestion')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button variant="light" onClick={() => setDialog({ kind: 'picker' })}>
              {t('AlarmAddExistingUser')}
            </Button>
            <Button onClick={() => setDialog({ kind: 'form', values: newReceiverValues(country), editMode: false, canPush: false })}>{t('AlarmAddNewReceiver')}</Button>
          </Group>
        </Stack>
      </Modal>

      <MemberPickerModal opened={dialog.kind === 'picker'} onClose={close} onPick={pick} />

      <AlarmReceiverFormModal
        opened={dialog.kind === 'form'}
        onClose={close}
        onSaved={done}
        initial={dialog.kind === 'form' ? dialog.values : newReceiverValues(country)}
        editMode={dialog.kind === 'form' && dialog.editMode}
        canPush={dialog.kind === 'form' && dialog.canPush}
        phoneShown={phoneShown}
        subsiteId={brand.id}
      />

      <DeleteModal receiver={dialog.kind === 'delete' ? dialog.receiver : null} onClose={close} onDeleted={done} />

      <SelectUnitsModal receiver={dialog.kind === 'units' ? dialog.receiver : null} onClose={close} onSaved={done} />
    </Stack>
  );
}

function DeleteModal({ receiver, onClose, onDeleted }: { receiver: AlarmReceiver | null; onClose: () => void; onDeleted: (key: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => deleteReceiver(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: alarmKeys.receivers });
      onDeleted('AlarmReceiverDeleteSuccessMsg');
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDeleteModal
      opened={receiver !== null}
      title={t('AlarmDeleteTitle')}
      message={receiver ? t('AlarmDeleteConfirm', { name: receiver.name }) : ''}
      confirmLabel={t('AlarmDelete')}
      cancelLabel={t('Cancel')}
      closeLabel={t('AlarmClose')}
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error) : null}
      onCancel={close}
      onConfirm={() => receiver && remove.mutate(receiver.id)}
    />
  );
}

function RowActions({ receiver, onEdit, onDelete }: { receiver: AlarmReceiver; onEdit: (r: AlarmReceiver) => void; onDelete: (r: AlarmReceiver) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon variant="subtle" aria-label={t('AlarmEditFor', { name: receiver.name })} onClick={() => onEdit(receiver)}>
        <IconPencil size={18} aria-hidden />
      </ActionIcon>
      <ActionIcon variant="subtle" color="red.8" aria-label={t('AlarmDeleteFor', { name: receiver.name })} onClick={() => onDelete(receiver)}>
        <IconTrash size={18} aria-hidden />
      </ActionIcon>
    </Group>
  );
}

