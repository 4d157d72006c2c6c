/**
 * Pairing a card with a unit's reader: the unit and the reader's id. The pairing is a device
 * command that stays pending until the tracker confirms it (the list shows its state).
 */
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RfidCard } from '../../../../../shared/schemas/rfid';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { usePairRfidCard } from '../api/rfid-api';
import { checkPairing, serverFieldKeys, type FieldKeys } from '../rfid-form';

interface Props {
  card: RfidCard | null;
  units: readonly UnitListItem[];
  onClose: () => void;
  onSaved: (messageKey: string) => void;
}

export function RfidPairModal({ card, units, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={card !== null} onClose={onClose} title={t('RfidPairTitle')} closeButtonProps={{ 'aria-label': t('RfidCancel') }}>
      {card ? <PairForm key={card.cardId} card={card} units={units} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function PairForm({ card, units, onClose, onSaved }: Props & { card: RfidCard }) {
  const { t } = useTranslation();
  const [imei, setImei] = useState<string | null>(card.reader?.imei ?? null);
  const [readerId, setReaderId] = useState(card.reader?.readerId ?? '');
  const [errors, setErrors] = useState<FieldKeys>({});
  const [general, setGeneral] = useState<string | null>(null);
  const pair = usePairRfidCard();

  const submit = () => {
    setGeneral(null);
    const checked = checkPairing({ imei, readerId });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    pair.mutate(
      { cardId: card.cardId, body: checked.body },
      {
        onSuccess: () => onSaved('RfidPairSent'),
        onError: (error) => {
          const fields = serverFieldKeys(error, ['imei', 'readerId']);
          if (fields) setErrors(fields);
          else setGeneral(errorMessage(error));
        },
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Text size="sm">{t('RfidPairIntro')}</Text>
        <Select
          label={t('RfidFieldUnit')}
          required
          searchable
          data={units.map((u) => ({ value: u.imei, label: u.registrationNumber ? `${u.name} (${u.registrationNumber})` : u.name }))}
          value={imei}
          onChange={setImei}
          error={fieldErrorText(errors['imei'])}
          comboboxProps={{ withinPortal: true }}
          // Focused first when the dialog opens: the list opens on a click or the arrow keys, not on focus.
          openOnFocus={false}
          data-autofocus
        />
        <TextInput
          label={t('RfidFieldReaderId')}
          description={t('RfidFieldReaderIdHint')}
          required
          value={readerId}
          onChange={(e) => setReaderId(e.currentTarget.value)}
          error={fieldErrorText(errors['readerId'])}
          autoComplete="off"
          spellCheck={false}
        />
        {general ? (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('RfidCancel')}
          </Button>
          <Button type="submit" loading={pair.isPending}>
            {t('RfidPairSend')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
