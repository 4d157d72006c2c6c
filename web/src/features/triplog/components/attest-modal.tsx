/**
 * Attesting the period's trip log (spec section 4): once attested, its trips can no longer be
 * edited, merged or split until an administrator unlocks the period. A note of at most 100
 * characters goes with it. A period that has not ended is attested up to today, said before the
 * user confirms: trips not yet driven are never locked.
 */
import { Alert, Button, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTEST_NOTE_MAX, attestRequestSchema, type Attestation } from '../../../../../shared/schemas/trips';
import { ApiError, browserTimeZone, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { attestPeriod } from '../api/trip-api';
import { useTripFormat } from '../format';
import { localDayOf } from '../../../../../shared/local-time';
import type { TripTotals } from '../trip-log';

interface AttestModalProps {
  imei: string;
  unitName: string;
  from: string;
  to: string;
  totals: TripTotals;
  opened: boolean;
  onClose: () => void;
  onDone: (attestation: Attestation) => void;
}

export function AttestModal({ opened, onClose, ...rest }: AttestModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('TripAttestTitle')} centered closeButtonProps={{ 'aria-label': t('TripClose') }}>
      {opened ? <AttestForm onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

function AttestForm({ imei, unitName, from, to, totals, onClose, onDone }: Omit<AttestModalProps, 'opened'>) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const [note, setNote] = useState('');
  const today = localDayOf(Date.now(), browserTimeZone());
  const until = to > today ? today : to;
  const notStarted = from > today;
  const [noteError, setNoteError] = useState<string | undefined>(undefined);
  const mutation = useMutation({
    mutationFn: attestPeriod,
    onSuccess: (attestation) => {
      onDone(attestation);
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError) setNoteError(error.fieldErrors['note']?.[0]);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (notStarted) return;
    const parsed = attestRequestSchema.safeParse({ imei, from, to: until, note: note.trim() === '' ? null : note });
    if (!parsed.success) {
      setNoteError(parsed.error.issues.find((i) => i.path[0] === 'note')?.message ?? parsed.error.issues[0]?.message);
      return;
    }
    setNoteError(undefined);
    mutation.mutate(parsed.data);
  };
  const left = ATTEST_NOTE_MAX - note.trim().length;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('TripAttestIntro', { unit: unitName, from: format.shortDay(from), to: format.shortDay(until) })}</Text>
        {notStarted ? (
          <Alert color="blue">{t('TripAttestNotStarted')}</Alert>
        ) : until !== to ? (
          <Alert color="blue">{t('TripAttestUpToToday', { today: format.shortDay(today) })}</Alert>
        ) : null}
        <List size="sm" spacing={2}>
          <List.Item>{t('TripAttestCount', { count: totals.business.count + totals.private.count + totals.other.count })}</List.Item>
          <List.Item>{t('TripAttestLocked')}</List.Item>
        </List>
        {mutation.isError && !noteError ? (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        ) : null}
        <Textarea
          label={t('TripAttestNote')}
          description={t('TripCharactersLeft', { count: Math.max(0, left) })}
          value={note}
          onChange={(event) => {
            setNote(event.currentTarget.value);
            setNoteError(undefined);
          }}
          autosize
          minRows={2}
          error={fieldErrorText(noteError)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending} disabled={notStarted}>
            {t('TripAttest')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
