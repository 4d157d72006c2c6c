/**
 * /administration/webhooks (docs/api.md Webhooks): the account's webhook subscriptions as cards
 * (the endpoint, its status with why it is paused, its events) with Edit, Send test, Deliveries
 * and Delete; New webhook opens the form, and a created webhook's signing secret is shown once.
 */
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconSend from '@tabler/icons-react/dist/esm/icons/IconSend.mjs';
import IconList from '@tabler/icons-react/dist/esm/icons/IconList.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import IconWebhook from '@tabler/icons-react/dist/esm/icons/IconWebhook.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook } from '../../../../../shared/schemas/webhooks';
import { errorMessage } from '../../../app/api-client';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { LoadFailed } from '../../../ui/load-failed';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { createWebhook, deleteWebhook, testWebhook, updateWebhook, useWebhooks, webhookKeys } from '../api/webhooks-api';
import { WebhookDeliveriesModal } from '../components/webhook-deliveries-modal';
import { WebhookFormModal, type WebhookFormValues } from '../components/webhook-form-modal';
import { WebhookSecretModal } from '../components/webhook-secret-modal';

type Dialog =
  | { kind: 'none' }
  | { kind: 'form'; editing: Webhook | null }
  | { kind: 'secret'; secret: string }
  | { kind: 'delete'; webhook: Webhook }
  | { kind: 'deliveries'; webhook: Webhook };

function StatusBadge({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  if (webhook.active) return <Badge color="green.9" variant="dot">{t('WebhookStatusActive')}</Badge>;
  return (
    <Badge color={webhook.pausedReason === 'failing' ? 'red.9' : 'gray.8'} variant="dot" style={{ whiteSpace: 'normal', height: 'auto' }}>
      {t(webhook.pausedReason === 'failing' ? 'WebhookStatusPausedFailing' : 'WebhookStatusPausedAdmin')}
    </Badge>
  );
}

export function WebhooksPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const close = () => setDialog({ kind: 'none' });
  const notify = (color: 'green' | 'red', message: string) => notifications.show({ color, message, closeButtonProps: { 'aria-label': t('WebhookClose') } });
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list });

  const save = async (editing: Webhook | null, values: WebhookFormValues) => {
    if (editing) {
      await updateWebhook(editing.id, values);
      await refresh();
      close();
      notify('green', t('WebhookSaved'));
    } else {
      const created = await createWebhook(values);
      await refresh();
      setDialog({ kind: 'secret', secret: created.secret });
    }
  };

  const remove = useMutation({
    mutationFn: (id: string) => deleteWebhook(id),
    onSuccess: async () => {
      await refresh();
      close();
      notify('green', t('WebhookDeleted'));
    },
  });
  const test = useMutation({
    mutationFn: (id: string) => testWebhook(id),
    onSuccess: () => notify('green', t('WebhookTestQueued')),
    onError: (error) => notify('red', errorMessage(error)),
  });

  const list = webhooks.data?.webhooks ?? [];
  const full = webhooks.data ? list.length >= webhooks.data.limit : true;

  return (
    <Stack gap="lg" maw={1000}>
      <Text maw={720}>{t('WebhooksIntro')}</Text>
      <Group justify="space-between" align="center" gap="sm">
        {webhooks.data ? (
          <Text size="sm" c="dimmed" data-testid="webhook-count">
            {t('WebhookCount', { count: list.length, limit: webhooks.data.limit })}
          </Text>
        ) : (
          <span />
        )}
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'form', editing: null })} disabled={full}>
          {t('WebhookAdd')}
        </Button>
      </Group>
      {webhooks.data && full ? (
        <Alert color="yellow" variant="light">
          {t('WebhookLimitReached')}
        </Alert>
      ) : null}

      {webhooks.isPending ? (
        <PageLoader />
      ) : webhooks.isError ? (
        <LoadFailed title={t('WebhookLoadFailed')} error={webhooks.error} onRetry={() => void webhooks.refetch()} retrying={webhooks.isFetching} />
      ) : list.length === 0 ? (
        <MessageState icon={<IconWebhook size={30} stroke={1.6} />} title={t('WebhookNone')}>
          {t('WebhookNoneHint')}
        </MessageState>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('Webhooks')}>
          {list.map((w) => (
            <Paper component="li" key={w.id} withBorder radius="md" p="md" data-testid="webhook-row">
              <Stack gap="sm">
                <Group justify="space-between" align="flex-start" gap="sm">
                  <Text fw={700} ff="monospace" size="sm" style={{ overflowWrap: 'anywhere', flex: '1 1 240px' }}>
                    {w.url}
                  </Text>
                  <StatusBadge webhook={w} />
                </Group>
                <Group gap={6} aria-label={t('WebhookEvents')} role="list">
                  {w.events.map((type) => (
                    <Badge key={type} variant="outline" color="gray.7" role="listitem" style={{ textTransform: 'none' }}>
                      {t(`WebhookEvent_${type}`)}
                    </Badge>
                  ))}
                </Group>
                <Group gap="xs" wrap="wrap">
                  <Button size="xs" variant="default" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setDialog({ kind: 'form', editing: w })} aria-label={t('WebhookEditFor', { url: w.url })}>
                    {t('WebhookEdit')}
                  </Button>
                  <Button size="xs" variant="default" leftSection={<IconSend size={14} aria-hidden />} onClick={() => test.mutate(w.id)} loading={test.isPending && test.variables === w.id} aria-label={t('WebhookTestFor', { url: w.url })}>
                    {t('WebhookTest')}
                  </Button>
                  <Button size="xs" variant="default" leftSection={<IconList size={14} aria-hidden />} onClick={() => setDialog({ kind: 'deliveries', webhook: w })} aria-label={t('WebhookDeliveriesFor', { url: w.url })}>
                    {t('WebhookDeliveries')}
                  </Button>
                  <Button size="xs" variant="outline" color="red.9" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setDialog({ kind: 'delete', webhook: w })} aria-label={t('WebhookDeleteFor', { url: w.url })}>
                    {t('WebhookDelete')}
                  </Button>
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}

      {dialog.kind === 'form' ? <WebhookFormModal editing={dialog.editing} onClose={close} onSubmit={(values) => save(dialog.editing, values)} /> : null}
      {dialog.kind === 'secret' ? <WebhookSecretModal secret={dialog.secret} onClose={close} /> : null}
      {dialog.kind === 'deliveries' ? <WebhookDeliveriesModal webhook={dialog.webhook} onClose={close} /> : null}
      <ConfirmDeleteModal
        opened={dialog.kind === 'delete'}
        title={t('WebhookDeleteTitle')}
        message={dialog.kind === 'delete' ? t('WebhookDeleteConfirm', { url: dialog.webhook.url }) : ''}
        confirmLabel={t('WebhookDelete')}
        cancelLabel={t('Cancel')}
        closeLabel={t('WebhookClose')}
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onCancel={() => {
          remove.reset();
          close();
        }}
        onConfirm={() => dialog.kind === 'delete' && remove.mutate(dialog.webhook.id)}
        confirmTestId="webhook-delete-confirm"
      />
    </Stack>
  );
}
