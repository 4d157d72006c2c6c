/**
 * Feature profiles: named sets of features and reports an admin gives users, who then use only
 * those features (the server refuses the others; admins are never limited). Add, edit (features,
 * reports and users in one form) and delete.
 */
import { Alert, Badge, Box, Button, Checkbox, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ORGANISATION_NAME_MAX,
  profileFeatures,
  profileReports,
  type FeatureProfile,
  type ProfileFeature,
  type ProfileReport,
} from '../../../../../shared/schemas/organisation';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { PageLoader } from '../../../ui/page-loader';
import { useDeleteProfile, useFeatureProfiles, useSaveProfile } from '../api/organisation-api';
import { usePickItems } from './assign-modal';
import { PickListField } from './pick-list-field';

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const featureLabelKey = (f: ProfileFeature): string => `ProfileFeature${upperFirst(f)}`;
export const reportLabelKey = (r: ProfileReport): string => `ProfileReport${upperFirst(r)}`;

type Editing = { profile: FeatureProfile | null } | null;

export function FeatureProfilesTab() {
  const { t } = useTranslation();
  const profiles = useFeatureProfiles();
  const remove = useDeleteProfile();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<FeatureProfile | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  if (profiles.data === undefined) {
    if (!profiles.isError) return <PageLoader />;
    return (
      <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(profiles.error)}</span>
          <Button variant="default" size="xs" onClick={() => void profiles.refetch()}>
            {t('TryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const list = profiles.data.profiles;
  const features = (p: FeatureProfile) => (
    <Group gap={4}>
      {p.features.map((f) => (
        <Badge key={f} variant="light" tt="none" fw={600}>
          {t(featureLabelKey(f))}
        </Badge>
      ))}
    </Group>
  );
  const actions = (p: FeatureProfile) => (
    <Group gap="xs">
      <Button size="xs" variant="light" onClick={() => setEditing({ profile: p })} aria-label={t('ProfileEdit', { name: p.name })}>
        {t('OrgEdit')}
      </Button>
      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(p)} aria-label={t('OrgDeleteNamed', { name: p.name })}>
        {t('OrgDelete')}
      </Button>
    </Group>
  );

  return (
    <Stack gap="md">
      <Text maw={760}>{t('ProfileIntro')}</Text>
      <Group>
        <Button onClick={() => setEditing({ profile: null })}>{t('ProfileNew')}</Button>
      </Group>
      <div aria-live="polite">
        {notice ? (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('OrgCancel')} onClose={() => setNotice(null)} maw={760}>
            {notice.text}
          </Alert>
        ) : null}
      </div>
      {list.length === 0 ? (
        <Text c="dimmed">{t('ProfileEmpty')}</Text>
      ) : (
        <>
          <Box visibleFrom="sm">
            <Table verticalSpacing="sm" aria-label={t('ProfileCaption')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('OrgName')}</Table.Th>
                  <Table.Th scope="col">{t('ProfileFeatures')}</Table.Th>
                  <Table.Th scope="col">{t('OrgUsers')}</Table.Th>
                  <Table.Th scope="col">{t('OrgActions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td fw={600}>{p.name}</Table.Td>
                    <Table.Td>{features(p)}</Table.Td>
                    <Table.Td>{p.userIds.length}</Table.Td>
                    <Table.Td>{actions(p)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
          <Stack hiddenFrom="sm" gap="sm" component="ul" aria-label={t('ProfileCaption')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {list.map((p) => (
              <Paper key={p.id} component="li" withBorder p="sm" radius="md">
                <Stack gap={6}>
                  <Text fw={600}>{p.name}</Text>
                  {features(p)}
                  <Text size="sm">
                    {t('OrgUsers')}: {p.userIds.length}
                  </Text>
                  {actions(p)}
                </Stack>
              </Paper>
            ))}
          </Stack>
        </>
      )}

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="xl"
        title={editing?.profile ? t('ProfileEdit', { name: editing.profile.name }) : t('ProfileNew')}
        closeButtonProps={{ 'aria-label': t('OrgCancel') }}
      >
        {editing ? (
          <ProfileForm
            key={editing.profile?.id ?? 'new'}
            profile={editing.profile}
            onClose={() => setEditing(null)}
            onDone={(text) => {
              setEditing(null);
              setNotice({ ok: true, text });
            }}
          />
        ) : null}
      </Modal>
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

function ProfileForm({ profile, onClose, onDone }: { profile: FeatureProfile | null; onClose: () => void; onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const picks = usePickItems();
  const save = useSaveProfile();
  const [name, setName] = useState(profile?.name ?? '');
  const [features, setFeatures] = useState<string[]>(profile?.features ?? []);
  const [reports, setReports] = useState<string[]>(profile?.reports ?? []);
  const [userIds, setUserIds] = useState<Set<string>>(() => new Set(profile?.userIds ?? []));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);

  const submit = () => {
    setGeneral(null);
    const local: Record<string, string> = {};
    if (!name.trim()) local['name'] = 'OrganisationNameRequired';
    if (features.length === 0) local['features'] = 'SelectAtLeastOneFeature';
    setErrors(local);
    if (Object.keys(local).length) return;
    save.mutate(
      { id: profile?.id ?? null, body: { name, features: features as ProfileFeature[], reports: reports as ProfileReport[] }, userIds: [...userIds] },
      {
        onSuccess: () => onDone(t('FeatureProfileSaved', { name: name.trim() })),
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fieldErrors : {};
          const server = Object.fromEntries(['name', 'features', 'userIds'].flatMap((f) => (fields[f]?.[0] ? [[f, fields[f][0]]] : [])));
          if (Object.keys(server).length) setErrors(server);
          else setGeneral(errorMessage(error));
        },
      },
    );
  };

  if (picks.loading) return <PageLoader />;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label={t('OrgName')}
          required
          value={name}
          maxLength={ORGANISATION_NAME_MAX + 10}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldErrorText(errors['name'])}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Checkbox.Group label={t('ProfileFeatures')} withAsterisk value={features} onChange={setFeatures} error={fieldErrorText(errors['features'])}>
            <Stack gap={6} mt="xs">
              {profileFeatures.map((f) => (
                <Checkbox key={f} value={f} label={t(featureLabelKey(f))} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Checkbox.Group label={t('ProfileReports')} value={reports} onChange={setReports}>
            <Stack gap={6} mt="xs">
              {profileReports.map((r) => (
                <Checkbox key={r} value={r} label={t(reportLabelKey(r))} />
              ))}
            </Stack>
          </Checkbox.Group>
        </SimpleGrid>
        <PickListField legend={t('ProfileUsers')} searchLabel={t('OrgSearchUsers')} items={picks.users} selected={userIds} onChange={setUserIds} error={fieldErrorText(errors['userIds'])} />
        {general ? (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('OrgCancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('OrgSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
