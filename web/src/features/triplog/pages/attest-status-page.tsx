/**
 * /administration/attest-status (spec sections 2, 4 and 6): per user of the account and month, what
 * is attested; an administrator approves an attestation, unlocks its period (its trips become
 * editable again), removes it, or e-mails the user a reminder to attest.
 */
import '../triplog.css';
import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconBell from '@tabler/icons-react/dist/esm/icons/IconBell.mjs';
import IconCheck from '@tabler/icons-react/dist/esm/icons/IconCheck.mjs';
import IconLockOpen from '@tabler/icons-react/dist/esm/icons/IconLockOpen.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import IconUsers from '@tabler/icons-react/dist/esm/icons/IconUsers.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Attestation, AttestationStatus } from '../../../../../shared/schemas/trips';
import { browserTimeZone, errorMessage } from '../../../app/api-client';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { useUnits } from '../../units/api/units';
import { attestationAction, attestationStatusKey, remindToAttest, useAttestationStatus, type AttestationAction } from '../api/trip-api';
import { useTripFormat } from '../format';
import { localDayOf } from '../../../../../shared/local-time';

type UserStatus = AttestationStatus['users'][number];

const monthStatusKeys = { notAttested: 'AttestNotAttested', attested: 'AttestAttested', approved: 'AttestApproved' } as const;
const monthStatusColors = { notAttested: 'red', attested: 'blue', approved: 'teal' } as const;
const statusKeys = { attested: 'AttestAttested', approved: 'AttestApproved', unlocked: 'AttestUnlocked' } as const;
const statusColors = { attested: 'blue', approved: 'teal', unlocked: 'gray' } as const;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function AttestStatusPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const thisMonth = localDayOf(Date.now(), browserTimeZone()).slice(0, 7);
  const asked = params.get('month');
  const month = asked && MONTH.test(asked) ? asked : thisMonth;
  const status = useAttestationStatus(month);
  const units = useUnits();
  const unitName = (imei: string) => units.data?.find((u) => u.imei === imei)?.name ?? imei;

  return (
    <Stack gap="lg" maw={960}>
      <Group align="flex-end" gap="sm">
        <TextInput
          type="month"
          label={t('AttestMonth')}
          value={month}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (MONTH.test(value)) setParams({ month: value }, { replace: true });
          }}
          w={200}
        />
      </Group>
      {status.isPending ? (
        <PageLoader />
      ) : status.isError ? (
        <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />}>
          <Stack gap="xs" align="flex-start">
            <span>{errorMessage(status.error)}</span>
            <Button size="xs" variant="default" onClick={() => void status.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : status.data.users.length === 0 ? (
        <MessageState icon={<IconUsers size={30} stroke={1.6} />} title={t('AttestNoUsers')} />
      ) : (
        <Stack component="ul" gap="md" className="triplog-cards">
          {status.data.users.map((user) => (
            <UserCard key={user.userId} user={user} month={month} unitName={unitName} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function UserCard({ user, month, unitName }: { user: UserStatus; month: string; unitName: (imei: string) => string }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const queryClient = useQueryClient();
  const headingId = `attest-user-${user.userId}`;
  const remind = useMutation({
    mutationFn: () => remindToAttest({ userId: user.userId, month, requestId: crypto.randomUUID() }),
    onSuccess: (answer) => {
      notifications.show({
        color: 'green',
        message: answer.sent ? t('AttestReminderSent', { name: user.name }) : t('AttestReminderAlreadySent', { name: user.name }),
        closeButtonProps: { 'aria-label': t('TripClose') },
      });
      void queryClient.invalidateQueries({ queryKey: attestationStatusKey(month) });
    },
  });
  return (
    <Paper component="li" withBorder radius="md" p="md" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="sm">
            <Title order={2} size="h4" id={headingId}>
              {user.name}
            </Title>
            <Badge color={monthStatusColors[user.status]} variant="light" tt="none">
              {t(monthStatusKeys[user.status])}
            </Badge>
          </Group>
          <Group gap="xs">
            {user.remindedAt ? (
              <Text size="xs" c="dimmed">
                {t('AttestRemindedAt', { time: format.dateTime(user.remindedAt) })}
              </Text>
            ) : null}
            {user.status !== 'approved' ? (
              <Button size="xs" variant="light" leftSection={<IconBell size={15} aria-hidden />} loading={remind.isPending} onClick={() => remind.mutate()}>
                {t('AttestSendReminder')}
                <VisuallyHidden> {user.name}</VisuallyHidden>
              </Button>
            ) : null}
          </Group>
        </Group>
        {remind.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(remind.error)}
          </Alert>
        ) : null}
        {user.attestations.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('AttestNothingThisMonth')}
          </Text>
        ) : (
          <Stack component="ul" gap="xs" className="triplog-cards">
            {user.attestations.map((attestation) => (
              <AttestationRow key={attestation.id} attestation={attestation} month={month} unitName={unitName(attestation.imei)} />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function AttestationRow({ attestation, month, unitName }: { attestation: Attestation; month: string; unitName: string }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const queryClient = useQueryClient();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const action = useMutation({
    mutationFn: (what: AttestationAction) => attestationAction(what, attestation.id),
    onSuccess: (_answer, what) => {
      const key = what === 'approve' ? 'AttestApprovedDone' : what === 'unlock' ? 'AttestUnlockedDone' : 'AttestRemovedDone';
      notifications.show({ color: 'green', message: t(key, { unit: unitName }), closeButtonProps: { 'aria-label': t('TripClose') } });
      setConfirmRemove(false);
      void queryClient.invalidateQueries({ queryKey: attestationStatusKey(month) });
      void queryClient.invalidateQueries({ queryKey: ['trips', attestation.imei] });
    },
  });
  const period = `${format.shortDay(attestation.from)} – ${format.shortDay(attestation.to)}`;
  const label = `${unitName}, ${period}`;
  return (
    <Paper component="li" withBorder radius="sm" p="sm" bg="var(--mantine-color-default-hover)" data-attestation={attestation.id}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Group gap="xs">
            <Text fw={600}>{unitName}</Text>
            <Badge color={statusColors[attestation.status]} variant="light" size="sm" tt="none">
              {t(statusKeys[attestation.status])}
            </Badge>
          </Group>
          <Text size="sm">{period}</Text>
          <Text size="xs" c="dimmed">
            {t('AttestAttestedAt', { time: format.dateTime(attestation.attestedAt), count: attestation.tripCount })}
          </Text>
          {attestation.approvedAt ? (
            <Text size="xs" c="dimmed">
              {t('AttestApprovedAt', { time: format.dateTime(attestation.approvedAt) })}
            </Text>
          ) : null}
          {attestation.unlockedAt ? (
            <Text size="xs" c="dimmed">
              {t('AttestUnlockedAt', { time: format.dateTime(attestation.unlockedAt) })}
            </Text>
          ) : null}
          {attestation.note ? (
            <Text size="sm" className="triplog-break">
              {t('AttestNoteShown', { note: attestation.note })}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs" wrap="wrap">
          {attestation.status === 'attested' ? (
            <Button size="xs" leftSection={<IconCheck size={15} aria-hidden />} loading={action.isPending && action.variables === 'approve'} onClick={() => action.mutate('approve')} aria-label={t('AttestApproveLabel', { what: label })}>
              {t('AttestApprove')}
            </Button>
          ) : null}
          {attestation.status !== 'unlocked' ? (
            <Button size="xs" variant="light" leftSection={<IconLockOpen size={15} aria-hidden />} loading={action.isPending && action.variables === 'unlock'} onClick={() => action.mutate('unlock')} aria-label={t('AttestUnlockLabel', { what: label })}>
              {t('AttestUnlock')}
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={15} aria-hidden />} onClick={() => setConfirmRemove(true)} aria-label={t('AttestRemoveLabel', { what: label })}>
            {t('AttestRemove')}
          </Button>
        </Group>
      </Group>
      {action.isError ? (
        <Alert color="red" role="alert" mt="xs">
          {errorMessage(action.error)}
        </Alert>
      ) : null}
      <Modal opened={confirmRemove} onClose={() => setConfirmRemove(false)} title={t('AttestRemoveTitle')} centered closeButtonProps={{ 'aria-label': t('TripClose') }}>
        <Stack gap="md">
          <Text size="sm">{t('AttestRemoveConfirm', { what: label })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmRemove(false)} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button color="red" loading={action.isPending && action.variables === 'remove'} onClick={() => action.mutate('remove')}>
              {t('AttestRemove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
