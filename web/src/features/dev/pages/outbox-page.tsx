/**
 * The embedded runtime's outbox: every e-mail, SMS and push the portal "sent" on this machine,
 * so a new user can read a 2FA code or a reset link without a mail server.
 */
import { Alert, Anchor, Container, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxKind, OutboxMessage } from '../../../../../shared/schemas/system';
import { ApiError } from '../../../app/api-client';
import { queryClient } from '../../../app/query-client';
import { useOutbox } from '../api/outbox';

function MessageRow({ message, locale }: { message: OutboxMessage; locale: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Table.Tr>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>{new Date(message.sentAt).toLocaleString(locale)}</Table.Td>
        <Table.Td>{t(message.kind === 'email' ? 'OutboxKindEmail' : message.kind === 'sms' ? 'OutboxKindSms' : 'OutboxKindPush')}</Table.Td>
        <Table.Td style={{ wordBreak: 'break-all' }}>{message.to}</Table.Td>
        <Table.Td>
          <Anchor component="button" type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-label={t('OutboxShowText', { to: message.to })}>
            {message.subject ?? message.text.slice(0, 60)}
          </Anchor>
        </Table.Td>
      </Table.Tr>
      {open ? (
        <Table.Tr>
          <Table.Td colSpan={4}>
            <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
              {message.text}
            </Text>
          </Table.Td>
        </Table.Tr>
      ) : null}
    </>
  );
}

function Outbox() {
  const { t, i18n } = useTranslation();
  const [to, setTo] = useState('');
  const [kind, setKind] = useState<'all' | OutboxKind>('all');
  const [debouncedTo] = useDebouncedValue(to, 300);
  const outbox = useOutbox(debouncedTo, kind === 'all' ? null : kind);
  const locale = i18n.language === 'no' ? 'nb-NO' : i18n.language === 'sv' ? 'sv-SE' : 'en-GB';

  return (
    <Container size="lg" py="lg" px="md">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('OutboxTitle')}
        </Title>
        <Text c="dimmed">{t('OutboxIntro')}</Text>
        <Group align="end" wrap="wrap">
          <TextInput label={t('OutboxRecipient')} description={t('OutboxRecipientHint')} value={to} onChange={(e) => setTo(e.currentTarget.value)} w={320} maw="100%" />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="outbox-kind">
              {t('OutboxKind')}
            </Text>
            <SegmentedControl
              aria-labelledby="outbox-kind"
              value={kind}
              onChange={(v) => setKind(v as 'all' | OutboxKind)}
              data={[
                { value: 'all', label: t('OutboxKindAll') },
                { value: 'email', label: t('OutboxKindEmail') },
                { value: 'sms', label: t('OutboxKindSms') },
                { value: 'push', label: t('OutboxKindPush') },
              ]}
            />
          </Stack>
        </Group>
        {outbox.error ? (
          <Alert color="red" role="alert">
            {outbox.error instanceof ApiError && outbox.error.status === 404 ? t('OutboxUnavailable') : outbox.error.message}
          </Alert>
        ) : null}
        <Paper withBorder radius="md" style={{ overflowX: 'auto' }}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-busy={outbox.isLoading}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('OutboxSentAt')}</Table.Th>
                <Table.Th>{t('OutboxKind')}</Table.Th>
                <Table.Th>{t('OutboxTo')}</Table.Th>
                <Table.Th>{t('OutboxSubject')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {outbox.data?.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text c="dimmed" ta="center" py="md">
                      {t('OutboxEmpty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                outbox.data?.map((m) => <MessageRow key={m.id} message={m} locale={locale} />)
              )}
            </Table.Tbody>
          </Table>
        </Paper>
      </Stack>
    </Container>
  );
}

export function OutboxPage() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outbox />
    </QueryClientProvider>
  );
}
