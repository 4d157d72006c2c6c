/**
 * RFID cards (/administration/rfid-cards, spec sections 2, 3, 6 and 8): the account's cards with
 * their owners and readers; editing, pairing with a unit's reader (pending until the tracker
 * confirms), unpairing and deleting. Cards are added in the phone app only, as the page says; the
 * route exists only while the account has RFID (the guard sends everybody else to the map).
 */
import { Alert, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconId from '@tabler/icons-react/dist/esm/icons/IconId.mjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RfidCard } from '../../../../../shared/schemas/rfid';
import { errorMessage } from '../../../app/api-client';
import { intlLocale } from '../../../i18n/i18n';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { absoluteTime } from '../../../ui/relative-time';
import { useUnits } from '../../units/api/units';
import { useDeleteRfidCard, useRfidCards, useUnpairRfidCard } from '../api/rfid-api';
import { RfidCardModal, type NewRfidCard } from '../components/rfid-card-modal';
import { RfidCardsTable } from '../components/rfid-cards-table';
import { RfidPairModal } from '../components/rfid-pair-modal';

export function RfidCardsPage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const cards = useRfidCards();
  const units = useUnits();
  const [editing, setEditing] = useState<RfidCard | NewRfidCard | null>(null);
  const [pairing, setPairing] = useState<RfidCard | null>(null);
  const [deleting, setDeleting] = useState<RfidCard | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const unpair = useUnpairRfidCard();
  const remove = useDeleteRfidCard();

  const done = (key: string) => {
    setEditing(null);
    setPairing(null);
    setDeleting(null);
    setNotice({ ok: true, text: t(key) });
  };
  const failed = (error: unknown) => setNotice({ ok: false, text: errorMessage(error) });

  if (cards.data === undefined) {
    if (!cards.isError) return <PageLoader />;
    return (
      <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} title={t('RfidLoadFailed')} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(cards.error)}</span>
          <Button variant="default" size="xs" onClick={() => void cards.refetch()} loading={cards.isFetching}>
            {t('RfidTryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const { cards: list, users, unknownReads } = cards.data;

  return (
    <Stack gap="md">
      <Text maw={760}>{t('RfidPageIntro')}</Text>
      <div aria-live="polite">
        {notice ? (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('RfidCancel')} onClose={() => setNotice(null)} maw={760}>
            {notice.text}
          </Alert>
        ) : null}
      </div>
      {list.length === 0 ? (
        <MessageState icon={<IconId size={30} stroke={1.6} />} title={t('NoCardsFound')}>
          {t('RfidHowToAdd')}
        </MessageState>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed" role="status">
            {t('RfidCardsCount', { count: list.length })}
          </Text>
          <RfidCardsTable
            cards={list}
            onEdit={(card) => setEditing(card)}
            onPair={(card) => setPairing(card)}
            onUnpair={(card) => unpair.mutate(card.cardId, { onSuccess: () => done('RfidUnpairSent'), onError: failed })}
            onDelete={(card) => setDeleting(card)}
            busyCardId={unpair.isPending ? (unpair.variables ?? null) : null}
          />
        </Stack>
      )}
      {unknownReads.length > 0 ? (
        <Stack gap="xs" maw={760}>
          <Title order={2} size="h4">
            {t('RfidUnknownReadsTitle')}
          </Title>
          <Text size="sm">{t('RfidUnknownReadsIntro')}</Text>
          <List size="sm" spacing={8}>
            {unknownReads.map((r) => (
              <List.Item key={r.cardId}>
                <Group gap="sm" wrap="wrap">
                  <span>{t('RfidUnknownRead', { card: r.cardId, count: r.reads, unit: r.unitName ?? r.imei, time: absoluteTime(r.lastReadAt, locale) })}</span>
                  <Button size="compact-sm" variant="light" onClick={() => setEditing({ cardId: r.cardId, name: '', userId: null, description: '', isNew: true })} aria-label={t('RfidAddCardLabel', { card: r.cardId })}>
                    {t('RfidAddCard')}
                  </Button>
                </Group>
              </List.Item>
            ))}
          </List>
        </Stack>
      ) : null}

      <RfidCardModal card={editing} users={users} onClose={() => setEditing(null)} onSaved={done} />
      <RfidPairModal card={pairing} units={units.data ?? []} onClose={() => setPairing(null)} onSaved={done} />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('RfidDeleteTitle')}
        message={t('RfidDeleteConfirm', { name: deleting?.name ?? '' })}
        confirmLabel={t('RfidDelete')}
        cancelLabel={t('RfidCancel')}
        closeLabel={t('RfidCancel')}
        pending={remove.isPending}
        error={null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.cardId, { onSuccess: () => done('RfidDeleted'), onError: (e) => { setDeleting(null); failed(e); } })}
      />
    </Stack>
  );
}
