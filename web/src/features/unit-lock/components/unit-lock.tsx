/**
 * The unit's access lock (spec sections 4 and 6), for the unit editor: the lock now (not locked,
 * locked by you, locked by someone), a Lock or Unlock button that first explains the effect in a
 * confirmation, and the lock log. Only the locker or support is offered Unlock; the server decides
 * anyway (403 OnlyLockerOrSupportUnlocks).
 */
import { Alert, Badge, Button, Group, Modal, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import IconLockOpen from '@tabler/icons-react/dist/esm/icons/IconLockOpen.mjs';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LockLogEntry, UnitLock as UnitLockData } from '../../../../../shared/schemas/unit-lock';
import { errorMessage } from '../../../app/api-client';
import { intlLocale } from '../../../i18n/i18n';
import { useChangeUnitLock, useUnitLock } from '../api/unit-lock';

function useDateTime() {
  const { i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  return useMemo(() => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }), [locale]);
}

function LockState({ data }: { data: UnitLockData }) {
  const { t } = useTranslation();
  const format = useDateTime();
  const lock = data.lock;
  if (!lock) {
    return (
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconLockOpen size={20} aria-hidden style={{ flex: 'none' }} />
        <Text size="sm">{t('LockStateUnlocked')}</Text>
      </Group>
    );
  }
  const when = lock.lockedAt ? format.format(new Date(lock.lockedAt)) : '';
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <IconLock size={20} aria-hidden style={{ flex: 'none' }} />
      <Text size="sm" fw={500}>
        {lock.mine ? t('LockStateLockedByYou', { when }) : t('LockStateLockedBy', { name: lock.lockedByName, when })}
      </Text>
    </Group>
  );
}

function LockLog({ entries }: { entries: readonly LockLogEntry[] }) {
  const { t } = useTranslation();
  const format = useDateTime();
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={4} size="h6" id={headingId}>
        {t('LockLogTitle')}
      </Title>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('LockLogEmpty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={320}>
          <Table striped verticalSpacing={4} fz="sm" aria-labelledby={headingId}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('LockLogWhen')}</Table.Th>
                <Table.Th scope="col">{t('LockLogWhat')}</Table.Th>
                <Table.Th scope="col">{t('LockLogWho')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <time dateTime={entry.at}>{format.format(new Date(entry.at))}</time>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="filled" color={entry.action === 'lock' ? 'red.9' : 'gray.7'} leftSection={entry.action === 'lock' ? <IconLock size={12} aria-hidden /> : <IconLockOpen size={12} aria-hidden />}>
                      {t(entry.action === 'lock' ? 'LockLogLocked' : 'LockLogUnlocked')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{entry.bySupport ? t('LockLogBySupport', { name: entry.userName }) : entry.userName}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/**
 * The access lock of one unit: its state, Lock or Unlock with a confirmation, and the lock log.
 * Inside a titled container (the unit editor's section) it leaves out its own heading and landmark.
 */
export function UnitLock({ imei, titled = true }: { imei: string; titled?: boolean }) {
  const { t } = useTranslation();
  const headingId = useId();
  const lock = useUnitLock(imei);
  const change = useChangeUnitLock(imei);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<'LockDone' | 'UnlockDone' | null>(null);
  const data = lock.data;
  const locked = Boolean(data?.lock);
  const canUnlock = data?.lock?.mayUnlock ?? false;

  const confirm = () => {
    const toLock = !locked;
    change.mutate(toLock, {
      onSuccess: () => setDone(toLock ? 'LockDone' : 'UnlockDone'),
      onSettled: () => setConfirming(false),
    });
  };
  const supportUnlock = locked && data?.lock && !data.lock.mine;

  return (
    <Paper withBorder={titled} p={titled ? 'md' : 0} radius="md" component={titled ? 'section' : 'div'} aria-labelledby={titled ? headingId : undefined}>
      <Stack gap="sm">
        {titled ? (
          <Title order={3} size="h5" id={headingId}>
            {t('LockTitle')}
          </Title>
        ) : null}
        <Text size="sm" c="dimmed">
          {t('LockIntro')}
        </Text>
        {lock.isPending ? <Skeleton height={48} /> : null}
        {lock.isError ? (
          <Alert color="red" variant="light" role="alert">
            {t('LockLoadFailed')} {errorMessage(lock.error)}
          </Alert>
        ) : null}
        {data ? (
          <>
            <LockState data={data} />
            {done ? (
              <Text size="sm" role="status">
                {t(done)}
              </Text>
            ) : null}
            {change.isError ? (
              <Alert color="red" variant="light" role="alert">
                {errorMessage(change.error)}
              </Alert>
            ) : null}
            {!locked || canUnlock ? (
              <Group>
                <Button
                  variant={locked ? 'default' : 'filled'}
                  leftSection={locked ? <IconLockOpen size={16} aria-hidden /> : <IconLock size={16} aria-hidden />}
                  onClick={() => {
                    setDone(null);
                    setConfirming(true);
                  }}
                >
                  {t(locked ? 'UnlockAction' : 'LockAction')}
                </Button>
              </Group>
            ) : null}
            <LockLog entries={data.entries} />
          </>
        ) : null}
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t(locked ? 'UnlockConfirmTitle' : 'LockConfirmTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('LockCancel') }}
      >
        <Stack gap="md">
          <Text size="sm">{t(locked ? 'UnlockConfirmBody' : 'LockConfirmBody')}</Text>
          {supportUnlock ? <Text size="sm">{t('UnlockConfirmBodySupport', { name: data?.lock?.lockedByName ?? '' })}</Text> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('LockCancel')}
            </Button>
            <Button color={locked ? undefined : 'red.9'} onClick={confirm} loading={change.isPending}>
              {t(locked ? 'UnlockConfirm' : 'LockConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
