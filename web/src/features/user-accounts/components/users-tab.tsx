/**
 * The Users tab: search over name and e-mail, New user, a table sortable by name, e-mail, admin
 * and unit count (cards on a phone), edit and delete (never yourself) with a confirmation.
 */
import { ActionIcon, Alert, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { notifications } from '@mantine/notifications';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconChevronUp from '@tabler/icons-react/dist/esm/icons/IconChevronUp.mjs';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconSelector from '@tabler/icons-react/dist/esm/icons/IconSelector.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountUser } from '../../../../../shared/schemas/administration';
import { errorMessage } from '../../../app/api-client';
import { parseLanguage } from '../../../app/preferences';
import { getSessionUser } from '../../../app/session';
import { useSearchQuery } from '../../../app/use-search-query';
import { intlLocale } from '../../../i18n/i18n';
import { PageLoader } from '../../../ui/page-loader';
import { useAccountUsers, useDeleteUser } from '../api/user-accounts-api';
import { fullName, matchesUser, nextSort, sortUsers, unitCountOf, type UserSort, type UserSortColumn } from '../user-list';
import { UserFormModal } from './user-form-modal';

const sortLabels: Record<UserSortColumn, string> = { name: 'UaColName', email: 'UaColEmail', admin: 'UaColAdmin', units: 'UaColUnits' };
const columns: readonly UserSortColumn[] = ['name', 'email', 'admin', 'units'];

export function UsersTab() {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const me = getSessionUser()?.ID;
  const users = useAccountUsers();
  const remove = useDeleteUser();
  const { query, deferred, changeQuery } = useSearchQuery();
  const [sort, setSort] = useState<UserSort>({ column: 'name', desc: false });
  const [editing, setEditing] = useState<AccountUser | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AccountUser | null>(null);
  // An admin sees every unit of the account: more than any ordinary user, however many there are.
  const unitCount = Number.POSITIVE_INFINITY;
  const rows = useMemo(
    () => sortUsers((users.data?.users ?? []).filter((u) => matchesUser(u, deferred)), sort, intlLocale(lang), unitCount),
    [users.data, deferred, sort, lang, unitCount],
  );
  const notify = (ok: boolean, text: string) => notifications.show({ color: ok ? 'green' : 'red', message: text, closeButtonProps: { 'aria-label': t('UaCancel') } });
  const saved = (key: string) => {
    setEditing(null);
    notify(true, t(key));
  };

  if (users.data === undefined) {
    if (!users.isError) return <PageLoader />;
    return (
      <Alert color="red" role="alert" title={t('UaLoadFailed')} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(users.error)}</span>
          <Button variant="default" size="xs" onClick={() => void users.refetch()} loading={users.isFetching}>
            {t('UaTryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const Actions = ({ user }: { user: AccountUser }) => {
    const name = fullName(user);
    const self = user.id === me;
    return (
      <Group gap={4} wrap="nowrap">
        <ActionIcon variant="subtle" onClick={() => setEditing(user)} aria-label={t('UaEditUser', { name })}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
        <Tooltip label={t('UaCannotDeleteSelfHint')} disabled={!self} withinPortal>
          <ActionIcon variant="subtle" color="red" onClick={() => setDeleting(user)} disabled={self} aria-label={t('UaDeleteUser', { name })} data-disabled={self || undefined}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    );
  };
  const units_ = (u: AccountUser) => (u.isAdmin ? t('UaAllUnits') : String(unitCountOf(u, unitCount)));
  const Name = ({ user }: { user: AccountUser }) => (
    <Group gap={6} wrap="nowrap">
      <Text fw={600} size="sm">
        {fullName(user)}
      </Text>
      {user.id === me ? (
        <Badge size="sm" variant="light" color="gray">
          {t('UaYou')}
        </Badge>
      ) : null}
    </Group>
  );
  const SortHeader = ({ column }: { column: UserSortColumn }) => {
    const active = sort.column === column;
    const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
    return (
      <Table.Th scope="col" aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
        <UnstyledButton onClick={() => setSort(nextSort(sort, column))} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700 }}>
          {t(sortLabels[column])}
          <Icon size={16} stroke={1.8} aria-hidden />
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label={t('UaSearchLabel')}
          placeholder={t('UaSearchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          value={query}
          onChange={(e) => changeQuery(e.currentTarget.value)}
          w={{ base: '100%', xs: 320 }}
        />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
          {t('UaNewUser')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" role="status">
        {t('UaUsersCount', { count: rows.length })}
      </Text>

      {/* Phones: cards, with the sort as buttons. */}
      <Stack gap="sm" hiddenFrom="sm">
        <Group gap={6} wrap="wrap" role="group" aria-label={t('UaSortBy', { column: '' }).trim()}>
          {columns.map((column) => {
            const active = sort.column === column;
            const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
            return (
              <Button key={column} size="compact-sm" variant={active ? 'light' : 'default'} rightSection={<Icon size={14} aria-hidden />} onClick={() => setSort(nextSort(sort, column))} aria-pressed={active}>
                {t(sortLabels[column])}
              </Button>
            );
          })}
        </Group>
        {rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            {t('UaNoUsers')}
          </Text>
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {rows.map((u) => (
              <Paper component="li" key={u.id} withBorder radius="md" p="sm">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Name user={u} />
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {u.email}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t('UaColAdmin')}: {t(u.isAdmin ? 'UaYes' : 'UaNo')} · {t('UaColUnits')}: {units_(u)}
                    </Text>
                  </Stack>
                  <Actions user={u} />
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>

      <Paper withBorder radius="md" visibleFrom="sm">
        <div role="region" aria-label={t('UaTabUsers')} tabIndex={0} style={{ overflowX: 'auto' }}>
          <Table verticalSpacing="sm" horizontalSpacing="sm" miw={680} aria-label={t('UaTabUsers')}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <SortHeader key={column} column={column} />
                ))}
                <Table.Th scope="col">{t('UaColActions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed" ta="center" py="md">
                      {t('UaNoUsers')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                rows.map((u) => (
                  <Table.Tr key={u.id}>
                    <Table.Td>
                      <Name user={u} />
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{u.email}</Table.Td>
                    <Table.Td>{t(u.isAdmin ? 'UaYes' : 'UaNo')}</Table.Td>
                    <Table.Td>{units_(u)}</Table.Td>
                    <Table.Td>
                      <Actions user={u} />
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </div>
      </Paper>

      <UserFormModal user={editing} isSelf={editing !== null && editing !== 'new' && editing.id === me} defaultLang={lang} onClose={() => setEditing(null)} onSaved={saved} />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('UaDeleteTitle')}
        message={t('UaDeleteConfirm', { name: deleting ? fullName(deleting) : '' })}
        confirmLabel={t('UaDelete')}
        cancelLabel={t('UaCancel')}
        closeLabel={t('UaCancel')}
        pending={remove.isPending}
        error={null}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              notify(true, t('UserDeleted'));
            },
            onError: (error) => {
              setDeleting(null);
              notify(false, errorMessage(error));
            },
          })
        }
      />
    </Stack>
  );
}
