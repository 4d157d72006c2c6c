/**
 * A webhook's latest deliveries: when, which event, the result (delivered, pending with its next
 * attempt, failed), attempts of the most, and the last answer (status, time, the start of its body
 * or why there was none). One card per delivery on a phone, a table from the sm breakpoint.
 */
import { Alert, Badge, Button, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Webhook, WebhookDelivery } from '../../../../../shared/schemas/webhooks';
import { errorMessage } from '../../../app/api-client';
import { intlLocale } from '../../../i18n/i18n';
import { parseLanguage } from '../../../app/preferences';
import { PageLoader } from '../../../ui/page-loader';
import { useWebhookDeliveries } from '../api/webhooks-api';

const statusColor: Record<WebhookDelivery['status'], string> = { succeeded: 'green.9', pending: 'blue.9', failed: 'red.9' };

export function WebhookDeliveriesModal({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(parseLanguage(i18n.language) ?? 'en');
  const deliveries = useWebhookDeliveries(webhook.id);
  const time = (iso: string) => new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'medium' });

  const result = (d: WebhookDelivery) => (
    <Stack gap={2}>
      <Group gap={6}>
        <Badge color={statusColor[d.status]} variant="dot">
          {t(`WebhookDelivery_${d.status}`)}
        </Badge>
        {d.test ? (
          <Badge color="gray.8" variant="outline">
            {t('WebhookTestBadge')}
          </Badge>
        ) : null}
      </Group>
      {d.nextAttemptAt ? (
        <Text size="xs" c="dimmed">
          {t('WebhookNextAttempt', { time: time(d.nextAttemptAt) })}
        </Text>
      ) : null}
    </Stack>
  );
  const answer = (d: WebhookDelivery) => (
    <Stack gap={2}>
      <Text size="sm">
        {d.responseCode !== null ? `HTTP ${d.responseCode}` : d.error ? t(d.error) : '–'}
        {d.responseTimeMs !== null ? ` · ${t('WebhookResponseTime', { ms: d.responseTimeMs })}` : ''}
      </Text>
      {d.responseExcerpt ? (
        <Text component="pre" size="xs" ff="monospace" m={0} p={4} bg="var(--mantine-color-default-hover)" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 80, overflow: 'auto' }}>
          {d.responseExcerpt}
        </Text>
      ) : null}
    </Stack>
  );

  return (
    <Modal opened onClose={onClose} title={t('WebhookDeliveriesFor', { url: webhook.url })} size="xl" closeButtonProps={{ 'aria-label': t('WebhookClose') }} styles={{ title: { overflowWrap: 'anywhere' } }}>
      <Stack gap="md">
        <Group justify="space-between">
          <Text fw={700} component="h3" m={0} size="md">
            {t('WebhookDeliveriesTitle')}
          </Text>
          <Button size="xs" variant="default" onClick={() => void deliveries.refetch()} loading={deliveries.isFetching}>
            {t('WebhookDeliveriesRefresh')}
          </Button>
        </Group>
        {deliveries.isPending ? (
          <PageLoader />
        ) : deliveries.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(deliveries.error)}
          </Alert>
        ) : deliveries.data.deliveries.length === 0 ? (
          <Text c="dimmed">{t('WebhookDeliveriesEmpty')}</Text>
        ) : (
          <>
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} hiddenFrom="sm">
              {deliveries.data.deliveries.map((d) => (
                <Paper component="li" key={d.id} withBorder p="sm" radius="md">
                  <Stack gap={6}>
                    <Group justify="space-between" align="flex-start" wrap="nowrap">
                      <Text fw={700}>{t(`WebhookEvent_${d.type}`)}</Text>
                      {result(d)}
                    </Group>
                    <Text size="sm" c="dimmed">
                      {time(d.createdAt)} · {t('WebhookColAttempts')} {t('WebhookAttempts', { attempts: d.attempts, max: d.maxAttempts })}
                    </Text>
                    {answer(d)}
                  </Stack>
                </Paper>
              ))}
            </Stack>
            <Table.ScrollContainer minWidth={640} visibleFrom="sm">
              <Table striped verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('WebhookColTime')}</Table.Th>
                    <Table.Th scope="col">{t('WebhookColEvent')}</Table.Th>
                    <Table.Th scope="col">{t('WebhookColResult')}</Table.Th>
                    <Table.Th scope="col">{t('WebhookColAttempts')}</Table.Th>
                    <Table.Th scope="col">{t('WebhookColAnswer')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {deliveries.data.deliveries.map((d) => (
                    <Table.Tr key={d.id} data-testid="webhook-delivery-row">
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{time(d.createdAt)}</Table.Td>
                      <Table.Td>{t(`WebhookEvent_${d.type}`)}</Table.Td>
                      <Table.Td>{result(d)}</Table.Td>
                      <Table.Td>{t('WebhookAttempts', { attempts: d.attempts, max: d.maxAttempts })}</Table.Td>
                      <Table.Td maw={280}>{answer(d)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
      </Stack>
    </Modal>
  );
}
