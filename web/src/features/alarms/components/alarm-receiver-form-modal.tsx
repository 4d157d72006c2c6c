/**
 * Modal 2 of spec section 2: create or edit an alarm receiver. Help text, name, e-mail, mobile with
 * a searchable country selector (Sweden first, or Norway in Norwegian; the dial code shows in the
 * country's name and cannot be edited; the number is typed as known, with or without its 0; subsite 0
 * only), push switch (edit only; enabled only for a receiver linked to a user with a push id),
 * security and function switches. Server 422 field errors show per field.
 */
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../app/api-client';
import { parseLanguage } from '../../../app/preferences';
import { translateMessage } from '../../../i18n/i18n';
import { PHONE_INPUT_MAX } from '../../../../../shared/validators/phone';
import { phoneCountryOptions } from '../../registration/countries';
import { alarmKeys, saveReceiver } from '../api/alarms-api';
import { formErrors, livePhoneError, saveBody, saveDisabled, type AlarmFormValues } from '../alarm-form-model';

interface Props {
  opened: boolean;
  onClose: () => void;
  onSaved: (messageKey: string) => void;
  initial: AlarmFormValues;
  /** Editing an existing receiver, or a user picked from the list: the push switch shows. */
  editMode: boolean;
  /** The linked user has a push id: the push switch can be used. */
  canPush: boolean;
  /** Phone fields only on subsite 0 (spec section 6). */
  phoneShown: boolean;
  subsiteId: number;
}

const FIELDS = ['name', 'email', 'phone', 'push_notification', 'member_id', 'security_alarm', 'function_alarm'] as const;

export function AlarmReceiverFormModal(props: Props) {
  const { t } = useTranslation();
  const title = props.initial.id ? t('AlarmFormEditTitle') : t('AlarmFormNewTitle');
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={title} size="lg" closeButtonProps={{ 'aria-label': t('AlarmClose') }}>
      {/* Keyed so that every opening starts from its own values. */}
      {props.opened ? <FormBody key={props.initial.id ?? props.initial.memberId ?? 'new'} {...props} /> : null}
    </Modal>
  );
}

function FormBody({ onClose, onSaved, initial, editMode, canPush, phoneShown, subsiteId }: Props) {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const queryClient = useQueryClient();
  const [values, setValues] = useState<AlarmFormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const options = useMemo(() => phoneCountryOptions(lang), [lang]);

  const set = <K extends keyof AlarmFormValues>(field: K, value: AlarmFormValues[K], clears: string[] = [field]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !clears.includes(k))));
  };

  const save = useMutation({
    mutationFn: () => saveReceiver(saveBody(values, subsiteId)),
    onSuccess: async () => {
      // The users who may still be added changed: the picker must not offer the old list while it asks again.
      queryClient.removeQueries({ queryKey: alarmKeys.members, exact: true });
      await queryClient.invalidateQueries({ queryKey: alarmKeys.receivers });
      onSaved('AlarmReceiverSuccessMsg');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) {
        const fieldErrors: Record<string, string> = {};
        for (const field of FIELDS) {
          const key = error.fieldErrors[field]?.[0];
          if (key) fieldErrors[field === 'push_notification' ? 'push' : field] = key;
        }
        if (Object.keys(fieldErrors).length > 0) {
          setErrors(fieldErrors);
          return;
        }
      }
      setGeneral(errorMessage(error));
    },
  });

  const phoneError = livePhoneError(values, phoneShown);
  const shown = (field: string) => (errors[field] ? translateMessage(errors[field]) : undefined);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setGeneral(null);
    const found = formErrors(values, subsiteId);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {phoneShown ? t('AlarmFormHelp') : t('AlarmFormHelpEmailOnly')}
        </Text>
        {general ? (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        ) : null}
        <TextInput label={t('AlarmFormName')} value={values.name} onChange={(e) => set('name', e.currentTarget.value)} error={shown('name')} maxLength={100} required data-autofocus autoComplete="off" />
        <TextInput
          label={t('AlarmFormEmail')}
          type="email"
          value={values.email}
          // An e-mail also answers "e-mail or phone" (spec section 5: the phone error clears).
          onChange={(e) => set('email', e.currentTarget.value, ['email', ...(e.currentTarget.value.trim() ? ['phoneRequired'] : [])])}
          error={shown('email')}
          maxLength={254}
          autoComplete="off"
        />
        {phoneShown ? (
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label={t('AlarmFormCountry')}
              data={options.map((o) => ({ value: o.value, label: o.label }))}
              value={values.country}
              onChange={(value) => {
                const option = options.find((o) => o.value === value);
                if (!option) return;
                setValues((v) => ({ ...v, country: option.value, dialCode: option.dialCode }));
              }}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('AlarmFormCountrySearch')}
              comboboxProps={{ withinPortal: true }}
              maxDropdownHeight={240}
            />
            <TextInput
              label={t('AlarmFormMobile')}
              type="tel"
              inputMode="tel"
              value={values.phone}
              onChange={(e) => set('phone', e.currentTarget.value)}
              error={shown('phone') ?? (phoneError ? translateMessage(phoneError) : undefined)}
              maxLength={PHONE_INPUT_MAX}
              autoComplete="off"
            />
          </SimpleGrid>
        ) : null}
        {editMode ? (
          <Switch
            label={t('AlarmFormPush')}
            description={canPush ? t('AlarmFormPushHint') : t('AlarmFormPushUnavailable')}
            checked={values.push && canPush}
            disabled={!canPush}
            onChange={(e) => set('push', e.currentTarget.checked, ['push'])}
            error={shown('push')}
          />
        ) : null}
        <Switch label={t('AlarmFormSecurity')} checked={values.security} onChange={(e) => set('security', e.currentTarget.checked)} />
        <Switch label={t('AlarmFormFunction')} checked={values.func} onChange={(e) => set('func', e.currentTarget.checked)} />
        {errors['member_id'] ? (
          <Text c="red" size="sm" role="alert">
            {translateMessage(errors['member_id'])}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={saveDisabled(values, phoneShown)}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
