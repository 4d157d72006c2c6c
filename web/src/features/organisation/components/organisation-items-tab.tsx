/**
 * One tab for each kind of organisation item (departments, tags, projects): add by name, rename,
 * delete, and for departments and tags the units and users that carry them. A table from the small
 * breakpoint up; on a phone each item is a block of its own.
 */
import { Alert, Box, Button, Group, Modal, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ORGANISATION_NAME_MAX, isAssignableKind, type OrganisationItem, type OrganisationKind } from '../../../../../shared/schemas/organisation';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { PageLoader } from '../../../ui/page-loader';
import { useCreateItem, useDeleteItem, useOrganisationItems, useRenameItem } from '../api/organisation-api';
import { AssignModal } from './assign-modal';

const kindKeys = {
  departments: { intro: 'OrgIntroDepartments', add: 'OrgNewDepartments', empty: 'OrgEmptyDepartments', caption: 'OrgCaptionDepartments' },
  tags: { intro: 'OrgIntroTags', add: 'OrgNewTags', empty: 'OrgEmptyTags', caption: 'OrgCaptionTags' },
  projects: { intro: 'OrgIntroProjects', add: 'OrgNewProjects', empty: 'OrgEmptyProjects', caption: 'OrgCaptionProjects' },
} as const satisfies Record<OrganisationKind, Record<string, string>>;

/** The 422 key of the name field, or null for another failure. */
const nameErrorOf = (error: unknown): string | null => (error instanceof ApiError ? (error.fieldErrors['name']?.[0] ?? null) : null);

export function OrganisationItemsTab({ kind }: { kind: OrganisationKind }) {
  const { t } = useTranslation();
  const keys = kindKeys[kind];
  const items = useOrganisationItems(kind);
  const create = useCreateItem(kind);
  const remove = useDeleteItem(kind);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [renaming, setRenaming] = useState<OrganisationItem | null>(null);
  const [assigning, setAssigning] = useState<OrganisationItem | null>(null);
  const [deleting, setDeleting] = useState<OrganisationItem | null>(null);

  const add = () => {
    setNotice(null);
    if (!name.trim()) {
      setNameError('OrganisationNameRequired');
      return;
    }
    create.mutate(name, {
      onSuccess: () => {
        setNotice({ ok: true, text: t('OrgAdded', { name: name.trim() }) });
        setName('');
        setNameError(null);
      },
      onError: (error) => {
        const key = nameErrorOf(error);
        if (key) setNameError(key);
        else setNotice({ ok: false, text: errorMessage(error) });
      },
    });
  };

  if (items.data === undefined) {
    if (!items.isError) return <PageLoader />;
    return (
      <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(items.error)}</span>
          <Button variant="default" size="xs" onClick={() => void items.refetch()}>
            {t('TryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const list = items.data.items;
  const assignable = isAssignableKind(kind);

  const actions = (item: OrganisationItem): ReactNode => (
    <Group gap="xs" wrap="wrap">
      {assignable ? (
        <Button size="xs" variant="light" onClick={() => setAssigning(item)} aria-label={t('OrgAssignNamed', { name: item.name })}>
          {t('OrgAssign')}
        </Button>
      ) : null}
      <Button size="xs" variant="light" onClick={() => setRenaming(item)} aria-label={t('OrgRenameNamed', { name: item.name })}>
        {t('OrgRename')}
      </Button>
      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(item)} aria-label={t('OrgDeleteNamed', { name: item.name })}>
        {t('OrgDelete')}
      </Button>
    </Group>
  );

  return (
    <Stack gap="md">
      <Text maw={760}>{t(keys.intro)}</Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          add();
        }}
      >
        <Group align="flex-start" gap="sm" wrap="wrap" maw={560}>
          <TextInput
            label={t(keys.add)}
            value={name}
            maxLength={ORGANISATION_NAME_MAX + 10}
            onChange={(e) => setName(e.currentTarget.value)}
            error={fieldErrorText(nameError ?? undefined)}
            style={{ flex: '1 1 220px' }}
          />
          <Button type="submit" loading={create.isPending} mt={25}>
            {t('OrgAdd')}
          </Button>
        </Group>
      </form>
      <div aria-live="polite">
        {notice ? (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('OrgCancel')} onClose={() => setNotice(null)} maw={760}>
            {notice.text}
          </Alert>
        ) : null}
      </div>
      {list.length === 0 ? (
        <Text c="dimmed">{t(keys.empty)}</Text>
      ) : (
        <>
          <Box visibleFrom="sm">
            <Table verticalSpacing="sm" aria-label={t(keys.caption)}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('OrgName')}</Table.Th>
                  {assignable ? <Table.Th scope="col">{t('OrgUnits')}</Table.Th> : null}
                  {assignable ? <Table.Th scope="col">{t('OrgUsers')}</Table.Th> : null}
                  <Table.Th scope="col">{t('OrgActions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td fw={600}>{item.name}</Table.Td>
                    {assignable ? <Table.Td>{item.imeis.length}</Table.Td> : null}
                    {assignable ? <Table.Td>{item.userIds.length}</Table.Td> : null}
                    <Table.Td>{actions(item)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
          <Stack hiddenFrom="sm" gap="sm" component="ul" aria-label={t(keys.caption)} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {list.map((item) => (
              <Paper key={item.id} component="li" withBorder p="sm" radius="md">
                <Stack gap={6}>
                  <Text fw={600}>{item.name}</Text>
                  {assignable ? (
                    <Text size="sm">
                      {t('OrgUnits')}: {item.imeis.length} · {t('OrgUsers')}: {item.userIds.length}
                    </Text>
                  ) : null}
                  {actions(item)}
                </Stack>
              </Paper>
            ))}
          </Stack>
        </>
      )}

      <RenameModal kind={kind} item={renaming} onClose={() => setRenaming(null)} onDone={(text) => { setRenaming(null); setNotice({ ok: true, text }); }} />
      {assignable ? (
        <AssignModal kind={kind} item={assigning} onClose={() => setAssigning(null)} onDone={(text) => { setAssigning(null); setNotice({ ok: true, text }); }} />
      ) : null}
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('OrgDeleteNamed', { name: deleting?.name ?? '' })}
        message={t('OrgDeleteQuestion', { name: deleting?.name ?? '' })}
        confirmLabel={t('OrgDelete')}
        cancelLabel={t('OrgCancel')}
        closeLabel={t('OrgCancel')}
        pending={remove.isPending}
        error={null}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setNotice({ ok: true, text: t('OrgDeleted', { name: deleting.name }) });
              setDeleting(null);
            },
            onError: (error) => {
              setDeleting(null);
              setNotice({ ok: false, text: errorMessage(error) });
            },
          })
        }
      />
    </Stack>
  );
}

function RenameModal({ kind, item, onClose, onDone }: { kind: OrganisationKind; item: OrganisationItem | null; onClose: () => void; onDone: (text: string) => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} title={t('OrgRenameNamed', { name: item?.name ?? '' })} closeButtonProps={{ 'aria-label': t('OrgCancel') }}>
      {item ? <RenameForm key={item.id} kind={kind} item={item} onClose={onClose} onDone={onDone} /> : null}
    </Modal>
  );
}

function RenameForm({ kind, item, onClose, onDone }: { kind: OrganisationKind; item: OrganisationItem; onClose: () => void; onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const rename = useRenameItem(kind);
  const [name, setName] = useState(item.name);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) {
          setError('OrganisationNameRequired');
          return;
        }
        rename.mutate(
          { id: item.id, name },
          { onSuccess: () => onDone(t('OrgRenamed', { name: name.trim() })), onError: (e) => setError(nameErrorOf(e) ?? errorMessage(e)) },
        );
      }}
    >
      <Stack gap="md">
        <TextInput label={t('OrgName')} required value={name} maxLength={ORGANISATION_NAME_MAX + 10} onChange={(e) => setName(e.currentTarget.value)} error={fieldErrorText(error ?? undefined)} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('OrgCancel')}
          </Button>
          <Button type="submit" loading={rename.isPending}>
            {t('OrgSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
