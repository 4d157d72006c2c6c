/**
 * Editing a card, or adding one a reader read: its name and owner (both required, spec section 5)
 * and a description. The owner is whom a read of the card checks in as the unit's driver.
 */
import { Alert, Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RFID_CARD_NAME_MAX, RFID_DESCRIPTION_MAX, type RfidCard, type RfidCardList } from '../../../../../shared/schemas/rfid';
import { errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { useAddRfidCard, useUpdateRfidCard } from '../api/rfid-api';
import { checkCard, serverFieldKeys, type FieldKeys } from '../rfid-form';

/** A card being added: its id as the reader read it, nothing else yet. */
export type NewRfidCard = Pick<RfidCard, 'cardId' | 'name' | 'userId' | 'description'> & { isNew: true };

interface Props {
  card: RfidCard | NewRfidCard | null;
  users: RfidCardList['users'];
  onClose: () => void;
  onSaved: (messageKey: string) => void;
}

export function RfidCardModal({ card, users, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={card !== null} onClose={onClose} title={card && 'isNew' in card ? t('RfidAddTitle') : t('RfidEditTitle')} closeButtonProps={{ 'aria-label': t('RfidCancel') }}>
      {card ? <CardForm key={card.cardId} card={card} users={users} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function CardForm({ card, users, onClose, onSaved }: Props & { card: RfidCard | NewRfidCard }) {
  const { t } = useTranslation();
  const [name, setName] = useState(card.name);
  const [userId, setUserId] = useState<string | null>(card.userId);
  const [description, setDescription] = useState(card.description);
  const [errors, setErrors] = useState<FieldKeys>({});
  const [general, setGeneral] = useState<string | null>(null);
  const save = useUpdateRfidCard();
  const add = useAddRfidCard();
  const isNew = 'isNew' in card;

  const submit = () => {
    setGeneral(null);
    const checked = checkCard({ name, userId, description });
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    const onError = (error: unknown) => {
      const fields = serverFieldKeys(error, ['name', 'userId', 'description']);
      if (fields) setErrors(fields);
      else setGeneral(errorMessage(error));
    };
    if (isNew) add.mutate({ cardId: card.cardId, ...checked.body }, { onSuccess: () => onSaved('RfidAdded'), onError });
    else save.mutate({ cardId: card.cardId, body: checked.body }, { onSuccess: () => onSaved('RfidSaved'), onError });
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
        <TextInput label={t('RfidCardIdLabel', { id: card.cardId })} value={card.cardId} readOnly variant="filled" />
        <TextInput
          label={t('RfidFieldName')}
          required
          value={name}
          maxLength={RFID_CARD_NAME_MAX + 10}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldErrorText(errors['name'])}
          data-autofocus
        />
        <Select
          label={t('RfidFieldOwner')}
          description={t('RfidFieldOwnerHint')}
          required
          searchable
          data={users.map((u) => ({ value: u.id, label: u.name }))}
          value={userId}
          onChange={setUserId}
          error={fieldErrorText(errors['userId'])}
          comboboxProps={{ withinPortal: true }}
        />
        <Textarea
          label={t('RfidFieldDescription')}
          value={description}
          autosize
          minRows={2}
          maxLength={RFID_DESCRIPTION_MAX + 10}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldErrorText(errors['description'])}
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
          <Button type="submit" loading={save.isPending || add.isPending}>
            {t('RfidSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
