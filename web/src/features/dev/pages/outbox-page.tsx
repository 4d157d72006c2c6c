/**
 * The embedded runtime's outbox: every e-mail, SMS and push the portal "sent" on this machine,
 * so a new user can read a 2FA code or a reset link without a mail server.
 *
 * The page sits in the public layout's narrow column, so each message is a card in a list (kind,
 * time, recipient, and the subject that opens the message) rather than a row of a table, and reads
 * the same on a phone. Links in a message can be followed from here.
 */
import { Alert, Anchor, Badge, Group, Input, Paper, SegmentedControl, Stack, Text, TextInput, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import { QueryClientProvider } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxKind, OutboxMessage } from '../../../../../shared/schemas/system';
import { ApiError } from '../../../app/api-client';
import { queryClient } from '../../../app/query-client';
import { useOutbox } from '../api/outbox';
import '../outbox.css';

const kindKeys = { email: 'OutboxKindEmail', sms: 'OutboxKindSms', push: 'OutboxKindPush', autoplan: 'OutboxKindAutoplan' } as const;

/** An http(s) address up to white space, without a sentence's closing punctuation. */
const LINK = /(https?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'])/;

/** The message text with its links clickable (split() with a capturing group: every odd part is a link). */
function MessageText({ text }: { text: string }) {
  return (
    <>
      {text.split(LINK).map((part, i) =>
        i % 2 === 1 ? (
          <Anchor key={i} href={part} inherit>
            {part}
          </Anchor>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** What the toggle shows: the subject, or for an SMS or push the start of its first line. */
function summaryOf(message: OutboxMessage): string {
  if (message.subject) return message.subject;
  const line = message.text.split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 60).trimEnd()}…` : line;
}

function MessageItem({ message, locale }: { message: OutboxMessage; locale: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Badge variant="default" radius="sm">
            {t(kindKeys[message.kind])}
          </Badge>
          <Text component="time" dateTime={message.sentAt} size="sm" c="dimmed">
            {new Date(message.sentAt).toLocaleString(locale)}
          </Text>
        </Group>
        <Text size="sm" className="outbox-wrap">
          <Text span size="sm" fw={600}>
            {t('OutboxTo')}:
          </Text>{' '}
          {message.to}
        </Text>
        {/* Named by what it shows (the subject) and to whom, so that each one is told apart in a list of buttons. */}
        <UnstyledButton className="outbox-toggle" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={bodyId}>
          <span className="outbox-subject">
            {summaryOf(message)}
            <VisuallyHidden className="outbox-spoken">, {t('OutboxShowText', { to: message.to })}</VisuallyHidden>
          </span>
          <IconChevronDown className="outbox-chevron" size={20} aria-hidden />
        </UnstyledButton>
        <div id={bodyId} className="outbox-body" hidden={!open}>
          {open ? <MessageText text={message.text} /> : null}
        </div>
      </Stack>
    </Paper>
  );
}

function Outbox() {
  const { t, i18n } = useTranslation();
  const [to, setTo] = useState('');
  const [kind, setKind] = useState<'all' | OutboxKind>('all');
  const [debouncedTo] = useDebouncedValue(to, 300);
  const outbox = useOutbox(debouncedTo, kind === 'all' ? null : kind);
  const locale = i18n.language === 'no' ? 'nb-NO' : i18n.language === 'sv' ? 'sv-SE' : 'en-GB';
  const titleId = useId();

  return (
    <Stack gap="md">
      <Title order={1} size="h2" id={titleId} className="outbox-wrap">
        {t('OutboxTitle')}
      </Title>
      <Text c="dimmed">{t('OutboxIntro')}</Text>
      <TextInput label={t('OutboxRecipient')} description={t('OutboxRecipientHint')} value={to} onChange={(e) => setTo(e.currentTarget.value)} size="md" autoComplete="off" />
      <Stack gap={4}>
        <Input.Label labelElement="div" id="outbox-kind" size="md">
          {t('OutboxKind')}
        </Input.Label>
        <SegmentedControl
          aria-labelledby="outbox-kind"
          fullWidth
          classNames={{ control: 'outbox-kind-control', label: 'outbox-kind-label' }}
          value={kind}
          onChange={(v) => setKind(v as 'all' | OutboxKind)}
          data={[
            { value: 'all', label: t('OutboxKindAll') },
            { value: 'email', label: t('OutboxKindEmail') },
            { value: 'sms', label: t('OutboxKindSms') },
            { value: 'push', label: t('OutboxKindPush') },
            // Autoplan reports (kind 'autoplan') are listed under All and found by registration number: a fifth option does not fit a phone.
          ]}
        />
      </Stack>
      {outbox.error ? (
        <Alert color="red" role="alert">
          {outbox.error instanceof ApiError && outbox.error.status === 404 ? t('OutboxUnavailable') : outbox.error.message}
        </Alert>
      ) : null}
      {outbox.data?.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          {t('OutboxEmpty')}
        </Text>
      ) : (
        <ul className="outbox-list" aria-labelledby={titleId} aria-busy={outbox.isLoading}>
          {outbox.data?.map((m) => <MessageItem key={m.id} message={m} locale={locale} />)}
        </ul>
      )}
    </Stack>
  );
}

export function OutboxPage() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outbox />
    </QueryClientProvider>
  );
}
