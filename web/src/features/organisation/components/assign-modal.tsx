/**
 * Which units and users carry a department or tag: the shared unit picker (server-side search,
 * select all matching) and a user picker with its search and 'select all shown'; at least one of
 * either (spec section 5, 'select at least one').
 */
import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrganisationItem, OrganisationKind } from '../../../../../shared/schemas/organisation';
import { errorMessage } from '../../../app/api-client';
import { translateMessage } from '../../../i18n/i18n';
import { PageLoader } from '../../../ui/page-loader';
import { UnitPicker } from '../../units/components/unit-picker';
import { useAssignItem, useOrganisationMembers } from '../api/organisation-api';
import type { PickItem } from '../pick-list';
import { PickListField } from './pick-list-field';

interface Props {
  kind: OrganisationKind;
  item: OrganisationItem | null;
  onClose: () => void;
  onDone: (text: string) => void;
}

export function AssignModal({ kind, item, onClose, onDone }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} size="xl" title={t('OrgAssignNamed', { name: item?.name ?? '' })} closeButtonProps={{ 'aria-label': t('OrgCancel') }}>
      {item ? <AssignForm key={item.id} kind={kind} item={item} onClose={onClose} onDone={onDone} /> : null}
    </Modal>
  );
}

/** The user picker's items: users by name with e-mail. */
export function usePickItems(): { users: PickItem[]; loading: boolean } {
  const members = useOrganisationMembers();
  return useMemo(
    () => ({
      users: (members.data?.users ?? []).map((u) => ({ id: u.id, label: u.name, detail: u.email })),
      loading: members.isPending,
    }),
    [members.data, members.isPending],
  );
}

function AssignForm({ kind, item, onClose, onDone }: Props & { item: OrganisationItem }) {
  const { t } = useTranslation();
  const picks = usePickItems();
  const assign = useAssignItem(kind);
  const [imeis, setImeis] = useState<readonly string[]>(() => item.imeis);
  const [userIds, setUserIds] = useState<Set<string>>(() => new Set(item.userIds));
  const [error, setError] = useState<string | null>(null);
  if (picks.loading) return <PageLoader />;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (imeis.length + userIds.size === 0) {
          setError(translateMessage('SelectAtLeastOneUnitOrUser'));
          return;
        }
        setError(null);
        assign.mutate(
          { id: item.id, body: { imeis: [...imeis], userIds: [...userIds] } },
          { onSuccess: () => onDone(t('OrgAssignSaved', { name: item.name })), onError: (e) => setError(errorMessage(e)) },
        );
      }}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <UnitPicker label={t('OrgUnits')} value={imeis} onChange={(next) => { setImeis(next); setError(null); }} selectAllMatching testId="org-units" />
          <PickListField legend={t('OrgUsers')} searchLabel={t('OrgSearchUsers')} items={picks.users} selected={userIds} onChange={(next) => { setUserIds(next); setError(null); }} />
        </SimpleGrid>
        <Text size="sm" role="status">
          {t('OrgSelectedCount', { units: imeis.length, users: userIds.size })}
        </Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('OrgCancel')}
          </Button>
          <Button type="submit" loading={assign.isPending}>
            {t('OrgSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
