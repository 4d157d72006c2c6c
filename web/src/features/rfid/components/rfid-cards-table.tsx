/**
 * The account's cards: name and id, owner, description, the reader with its pairing state, and the
 * actions. A table from the small breakpoint up; on a phone each card is a block of its own, so
 * nothing hides behind a sideways scroll.
 */
import { Badge, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RfidCard, RfidPairingStatus } from '../../../../../shared/schemas/rfid';

const statusKeys: Readonly<Record<RfidPairingStatus, string>> = {
  pending: 'RfidStatusPending',
  unanswered: 'RfidStatusUnanswered',
  paired: 'RfidStatusPaired',
  failed: 'RfidStatusFailed',
  cancelled: 'RfidStatusCancelled',
};
const statusColors: Readonly<Record<RfidPairingStatus, string>> = {
  pending: 'blue',
  unanswered: 'orange',
  paired: 'green',
  failed: 'red',
  cancelled: 'gray',
};

interface Props {
  cards: readonly RfidCard[];
  onEdit: (card: RfidCard) => void;
  onPair: (card: RfidCard) => void;
  onUnpair: (card: RfidCard) => void;
  onDelete: (card: RfidCard) => void;
  busyCardId: string | null;
}

function Reader({ card }: { card: RfidCard }) {
  const { t } = useTranslation();
  if (!card.reader) {
    return (
      <Text span c="dimmed" size="sm">
        {t('RfidNotPaired')}
      </Text>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm">{t('RfidReaderOn', { reader: card.reader.readerId, unit: card.reader.unitName ?? card.reader.imei })}</Text>
      <Badge color={statusColors[card.reader.status]} variant="light" tt="none" fw={600}>
        {t(statusKeys[card.reader.status])}
      </Badge>
    </Stack>
  );
}

function Actions({ card, onEdit, onPair, onUnpair, onDelete, busyCardId }: Omit<Props, 'cards'> & { card: RfidCard }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Button size="xs" variant="light" onClick={() => onEdit(card)} aria-label={t('RfidEditCard', { name: card.name })}>
        {t('RfidEdit')}
      </Button>
      <Button size="xs" variant="light" onClick={() => onPair(card)} aria-label={t('RfidPairCard', { name: card.name })}>
        {t('RfidPair')}
      </Button>
      {card.reader ? (
        <Button size="xs" variant="default" onClick={() => onUnpair(card)} loading={busyCardId === card.cardId} aria-label={t('RfidUnpairCard', { name: card.name })}>
          {t('RfidUnpair')}
        </Button>
      ) : null}
      <Button size="xs" variant="subtle" color="red" onClick={() => onDelete(card)} aria-label={t('RfidDeleteCard', { name: card.name })}>
        {t('RfidDelete')}
      </Button>
    </Group>
  );
}

export function RfidCardsTable({ cards, ...actions }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Box visibleFrom="sm">
        <Table verticalSpacing="sm" aria-label={t('RfidTableCaption')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('RfidColumnName')}</Table.Th>
              <Table.Th scope="col">{t('RfidColumnOwner')}</Table.Th>
              <Table.Th scope="col">{t('RfidColumnDescription')}</Table.Th>
              <Table.Th scope="col">{t('RfidColumnReader')}</Table.Th>
              <Table.Th scope="col">{t('RfidColumnActions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cards.map((card) => (
              <Table.Tr key={card.cardId}>
                <Table.Td>
                  <Text fw={600}>{card.name}</Text>
                  <Text size="sm" c="dimmed" ff="monospace">
                    {card.cardId}
                  </Text>
                </Table.Td>
                <Table.Td>{card.userName ?? <Text span c="dimmed">{t('RfidNoOwner')}</Text>}</Table.Td>
                <Table.Td maw={260} style={{ overflowWrap: 'anywhere' }}>
                  {card.description}
                </Table.Td>
                <Table.Td>
                  <Reader card={card} />
                </Table.Td>
                <Table.Td>
                  <Actions card={card} {...actions} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack hiddenFrom="sm" gap="sm" component="ul" aria-label={t('RfidTableCaption')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {cards.map((card) => (
          <Paper key={card.cardId} component="li" withBorder p="sm" radius="md">
            <Stack gap={6}>
              <div>
                <Text fw={600}>{card.name}</Text>
                <Text size="sm" c="dimmed" ff="monospace">
                  {card.cardId}
                </Text>
              </div>
              <Text size="sm">
                {t('RfidColumnOwner')}: {card.userName ?? t('RfidNoOwner')}
              </Text>
              {card.description ? (
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {card.description}
                </Text>
              ) : null}
              <Reader card={card} />
              <Actions card={card} {...actions} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
