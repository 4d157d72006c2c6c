/** A key's call log, newest first, 25 calls at a time (docs/api.md API keys). */
import { Button, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiKey } from '../../../../../shared/schemas/api-keys';
import { LoadFailed } from '../../../ui/load-failed';
import { useApiKeyCalls } from '../api/api-keys-api';

export function CallsModal({ apiKey, onClose, formatTime }: { apiKey: ApiKey | null; onClose: () => void; formatTime: (iso: string) => string }) {
  const { t } = useTranslation();
  const calls = useApiKeyCalls(apiKey?.id ?? null);
  const rows = calls.data?.pages.flatMap((p) => p.calls) ?? [];
  return (
    <Modal opened={apiKey !== null} onClose={onClose} title={t('ApiKeyCallsTitle', { name: apiKey?.name ?? '' })} centered size="xl" closeButtonProps={{ 'aria-label': t('ApiKeyClose') }}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('ApiKeyCallsIntro')}
        </Text>
        {calls.isPending ? (
          <Text role="status">{t('Loading')}</Text>
        ) : calls.isError ? (
          <LoadFailed title={t('ApiKeyCallsLoadFailed')} error={calls.error} onRetry={() => void calls.refetch()} retrying={calls.isFetching} />
        ) : rows.length === 0 ? (
          <Text>{t('ApiKeyCallsNone')}</Text>
        ) : (
          <ScrollArea type="auto" offsetScrollbars>
            <Table verticalSpacing="xs" miw={560} aria-label={t('ApiKeyCallsTitle', { name: apiKey?.name ?? '' })} data-testid="api-key-calls">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('ApiKeyCallTime')}</Table.Th>
                  <Table.Th scope="col">{t('ApiKeyCallOperation')}</Table.Th>
                  <Table.Th scope="col">{t('ApiKeyCallStatus')}</Table.Th>
                  <Table.Th scope="col">{t('ApiKeyCallClient')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((call) => (
                  <Table.Tr key={`${call.at}-${call.path}-${call.status}`}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(call.at)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {call.operationId}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {call.method} {call.path}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={700} c={call.status < 400 ? undefined : 'red.9'}>
                        {call.status}
                      </Text>
                    </Table.Td>
                    <Table.Td>{call.client}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        {calls.hasNextPage ? (
          <Button variant="default" onClick={() => void calls.fetchNextPage()} loading={calls.isFetchingNextPage}>
            {t('ApiKeyCallsMore')}
          </Button>
        ) : null}
      </Stack>
    </Modal>
  );
}
