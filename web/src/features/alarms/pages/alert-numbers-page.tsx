/**
 * /administration/configure-alert-numbers (spec section 2): only for the one parent account the
 * spec names (the route guard, and the server's 403 for anyone else). Each of its accounts with the
 * sender of its SMS alarms: a number in E.164 or a sender id of 3 to 11 letters and digits (what SNS takes).
 */
import { Alert, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconBuilding from '@tabler/icons-react/dist/esm/icons/IconBuilding.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALERT_SENDER_PATTERN, type AlertSenderAccount } from '../../../../../shared/schemas/alarms';
import { ApiError, errorMessage } from '../../../app/api-client';
import { translateMessage } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { alarmKeys, saveAlertNumber, useAlertNumbers } from '../api/alarms-api';

export function AlertNumbersPage() {
  const { t } = useTranslation();
  const accounts = useAlertNumbers();
  return (
    <Stack gap="lg" maw={900}>
      <Text c="dimmed">{t('AlertNumbersIntro')}</Text>
      {accounts.isPending ? (
        <PageLoader />
      ) : accounts.isError ? (
        <Alert color="red" role="alert">
          {accounts.error instanceof ApiError && accounts.error.status !== 0 ? errorMessage(accounts.error) : t('AlertNumbersLoadFailed')}
        </Alert>
      ) : accounts.data.accounts.length === 0 ? (
        <MessageState icon={<IconBuilding size={30} stroke={1.6} />} title={t('AlertNumbersNone')} />
      ) : (
        <Paper withBorder radius="md">
          <Table verticalSpacing="sm" aria-label={t('AlertNumbersColSender')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('AlertNumbersColAccount')}</Table.Th>
                <Table.Th scope="col">{t('AlertNumbersColSender')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {accounts.data.accounts.map((a) => (
                <SenderRow key={a.accountId} account={a} />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <Text size="sm" c="dimmed">
        {t('AlertNumbersHint')}
      </Text>
    </Stack>
  );
}

function SenderRow({ account }: { account: AlertSenderAccount }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(account.alertSenderId ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => saveAlertNumber(account.accountId, value.trim() || null),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: alarmKeys.alertNumbers });
      notifications.show({ color: 'green', message: t('AlertSenderIdSaved'), closeButtonProps: { 'aria-label': t('AlarmClose') } });
    },
    onError: (e) => setError(e instanceof ApiError && e.fieldErrors['alertSenderId']?.[0] ? translateMessage(e.fieldErrors['alertSenderId'][0]) : errorMessage(e)),
  });
  const submit = () => {
    const v = value.trim();
    if (v && !ALERT_SENDER_PATTERN.test(v)) {
      setError(translateMessage('InvalidAlertSenderId'));
      return;
    }
    setError(null);
    save.mutate();
  };
  return (
    <Table.Tr>
      <Table.Td fw={600}>{account.name}</Table.Td>
      <Table.Td>
        {/* On a phone the button goes under the field rather than pushing the table past the screen. */}
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            aria-label={t('AlertNumbersSenderFor', { name: account.name })}
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            maxLength={16}
            w={220}
            maw="100%"
          />
          <Button variant="light" onClick={submit} loading={save.isPending} disabled={value.trim() === (account.alertSenderId ?? '')}>
            {t('AlertNumbersSave')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
