/**
 * /administration/api-keys (docs/api.md API keys): the account's keys (name, prefix, scopes, created,
 * last used, revoked) as a table, or cards on a phone; creating a key (shown once), revoking one
 * after a confirmation, and a key's call log.
 */
import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconKey from '@tabler/icons-react/dist/esm/icons/IconKey.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '../../../../../shared/schemas/api-keys';
import { errorMessage } from '../../../app/api-client';
import { parseLanguage } from '../../../app/preferences';
import { intlLocale } from '../../../i18n/i18n';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { LoadFailed } from '../../../ui/load-failed';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { apiKeyQueries, revokeApiKey, useApiKeys } from '../api/api-keys-api';
import { CallsModal } from '../components/calls-modal';
import { CreateKeyModal } from '../components/create-key-modal';
import { scopeLabelKeys } from '../scope-labels';

export function ApiKeysPage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(parseLanguage(i18n.language) ?? 'en');
  const keys = useApiKeys();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const [revokePending, setRevokePending] = useState(false);
  const [callsOf, setCallsOf] = useState<ApiKey | null>(null);

  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const formatTime = (iso: string) => time.format(new Date(iso));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: apiKeyQueries.keys });

  const revoke = async () => {
    if (!revoking) return;
    setRevokePending(true);
    setRevokeError(null);
    try {
      await revokeApiKey(revoking.id);
      setRevoking(null);
      refresh();
      notifications.show({ color: 'green', message: t('ApiKeyRevoked'), closeButtonProps: { 'aria-label': t('ApiKeyClose') } });
    } catch (error) {
      setRevokeError(errorMessage(error));
    } finally {
      setRevokePending(false);
    }
  };

  const active = keys.data?.keys.filter((k) => !k.revokedAt).length ?? 0;
  const status = (k: ApiKey) =>
    k.revokedAt ? (
      <Text size="sm" fw={600} c="gray.8">
        {t('ApiKeyRevokedAt', { date: formatTime(k.revokedAt) })}
      </Text>
    ) : (
      <Text size="sm" fw={700}>
        {t('ApiKeyActive')}
      </Text>
    );
  const scopes = (k: ApiKey) => (
    <Group gap={4} wrap="wrap">
      {k.scopes.map((s) => (
        <Badge key={s} variant="outline" color="dark" tt="none" title={s}>
          {t(scopeLabelKeys[s])}
        </Badge>
      ))}
    </Group>
  );
  const actions = (k: ApiKey) => (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="light" onClick={() => setCallsOf(k)} aria-label={t('ApiKeyShowCallsOf', { name: k.name })}>
        {t('ApiKeyShowCalls')}
      </Button>
      {k.revokedAt ? null : (
        <Button size="xs" color="red.8" onClick={() => setRevoking(k)} aria-label={t('ApiKeyRevokeOf', { name: k.name })}>
          {t('ApiKeyRevoke')}
        </Button>
      )}
    </Group>
  );

  return (
    <Stack gap="lg" maw={1200}>
      <Text maw={760}>{t('ApiKeysIntro')}</Text>
      <Group justify="space-between" gap="sm">
        <Text fw={600} aria-live="polite">
          {keys.data ? t('ApiKeysActiveCount', { count: active, max: keys.data.maxActive }) : ''}
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          {t('ApiKeysCreate')}
        </Button>
      </Group>

      {keys.isPending ? (
        <PageLoader />
      ) : keys.isError ? (
        <LoadFailed title={t('ApiKeysLoadFailed')} error={keys.error} onRetry={() => void keys.refetch()} retrying={keys.isFetching} />
      ) : keys.data.keys.length === 0 ? (
        <MessageState icon={<IconKey size={30} stroke={1.6} />} title={t('ApiKeysNone')}>
          {t('ApiKeysIntro')}
        </MessageState>
      ) : (
        <>
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} hiddenFrom="md" aria-label={t('ApiKeysTitle')}>
            {keys.data.keys.map((k) => (
              <Paper component="li" key={k.id} withBorder radius="md" p="sm">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                      {k.name}
                    </Text>
                    {status(k)}
                  </Group>
                  <Text size="sm" ff="monospace">
                    {k.prefix}…
                  </Text>
                  {scopes(k)}
                  <Text size="sm">
                    {t('ApiKeyCreated')}: {formatTime(k.createdAt)} {t('ApiKeyCreatedBy', { name: k.createdBy })}
                  </Text>
                  <Text size="sm">
                    {t('ApiKeyLastUsed')}: {k.lastUsedAt ? formatTime(k.lastUsedAt) : t('ApiKeyNeverUsed')}
                  </Text>
                  {actions(k)}
                </Stack>
              </Paper>
            ))}
          </Stack>
          <Paper withBorder radius="md" visibleFrom="md">
            <div role="region" aria-label={t('ApiKeysTitle')} tabIndex={0} style={{ overflowX: 'auto' }}>
              <Table verticalSpacing="sm" horizontalSpacing="sm" miw={960} aria-label={t('ApiKeysTitle')} data-testid="api-keys-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('ApiKeyName')}</Table.Th>
                    <Table.Th scope="col">{t('ApiKeyPrefix')}</Table.Th>
                    <Table.Th scope="col">{t('ApiKeyScopes')}</Table.Th>
                    <Table.Th scope="col">{t('ApiKeyCreated')}</Table.Th>
                    <Table.Th scope="col">{t('ApiKeyLastUsed')}</Table.Th>
                    <Table.Th scope="col">{t('ApiKeyStatus')}</Table.Th>
                    <Table.Th scope="col">{t('ApiKeyActions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {keys.data.keys.map((k) => (
                    <Table.Tr key={k.id}>
                      <Table.Td fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {k.name}
                      </Table.Td>
                      <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                        {k.prefix}…
                      </Table.Td>
                      <Table.Td>{scopes(k)}</Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {formatTime(k.createdAt)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {t('ApiKeyCreatedBy', { name: k.createdBy })}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{k.lastUsedAt ? formatTime(k.lastUsedAt) : t('ApiKeyNeverUsed')}</Table.Td>
                      <Table.Td>{status(k)}</Table.Td>
                      <Table.Td>{actions(k)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          </Paper>
        </>
      )}

      <CreateKeyModal opened={creating} onClose={() => setCreating(false)} onCreated={refresh} />
      <ConfirmDeleteModal
        opened={revoking !== null}
        title={t('ApiKeyRevokeTitle', { name: revoking?.name ?? '' })}
        message={t('ApiKeyRevokeText')}
        confirmLabel={t('ApiKeyRevokeConfirm')}
        cancelLabel={t('Cancel')}
        closeLabel={t('ApiKeyClose')}
        pending={revokePending}
        error={revokeError}
        onCancel={() => {
          setRevoking(null);
          setRevokeError(null);
        }}
        onConfirm={() => void revoke()}
        confirmTestId="api-key-revoke-confirm"
      />
      <CallsModal apiKey={callsOf} onClose={() => setCallsOf(null)} formatTime={formatTime} />
    </Stack>
  );
}
