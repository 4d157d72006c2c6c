/**
 * Creating or editing a user (react-hook-form with the server's own schema, shared/schemas/
 * administration.ts): names, the e-mail (the login name, fixed once created), an optional
 * password, the language, the admin flag and, for an ordinary user, the units they see. The
 * server's 422 keys land on the same fields.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { userSaveSchema, type AccountUser } from '../../../../../shared/schemas/administration';
import type { Language } from '../../../../../shared/schemas/common';
import { errorMessage } from '../../../app/api-client';
import { languageOptions } from '../../../i18n/i18n';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { useCreateUser, useUpdateUser } from '../api/user-accounts-api';
import { UnitAccessPicker } from './unit-access-picker';

type FormValues = z.input<typeof userSaveSchema>;
type Saved = z.output<typeof userSaveSchema>;
const fields = ['FirstName', 'LastName', 'email', 'password', 'isAdmin', 'imeis', 'lang'] as const;

interface Props {
  /** null: closed; 'new': creating; a user: editing them. */
  user: AccountUser | 'new' | null;
  isSelf: boolean;
  defaultLang: Language;
  onClose: () => void;
  onSaved: (messageKey: string) => void;
}

export function UserFormModal({ user, isSelf, defaultLang, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={user !== null} onClose={onClose} title={t(user === 'new' ? 'UaCreateTitle' : 'UaEditTitle')} size="lg" closeButtonProps={{ 'aria-label': t('UaCancel') }}>
      {user !== null ? <UserForm key={user === 'new' ? 'new' : user.id} user={user} isSelf={isSelf} defaultLang={defaultLang} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function UserForm({ user, isSelf, defaultLang, onClose, onSaved }: Props & { user: AccountUser | 'new' }) {
  const { t } = useTranslation();
  const creating = user === 'new';
  const form = useForm<FormValues, unknown, Saved>({
    resolver: zodResolver(userSaveSchema),
    defaultValues: creating
      ? { FirstName: '', LastName: '', email: '', password: '', isAdmin: false, imeis: [], lang: defaultLang }
      : { FirstName: user.FirstName, LastName: user.LastName, email: user.email, password: '', isAdmin: user.isAdmin, imeis: user.imeis, lang: user.lang },
  });
  const create = useCreateUser();
  const update = useUpdateUser();
  const mutation = creating ? create : update;
  const { errors } = form.formState;
  const isAdmin = form.watch('isAdmin');
  const hasFieldError = fields.some((f) => errors[f]);

  const submit = form.handleSubmit((values) => {
    const body = { ...values, password: values.password ?? '' };
    const onError = (error: unknown) => applyServerFieldErrors(error, fields, form.setError);
    if (creating) create.mutate(body, { onSuccess: () => onSaved('UserCreated'), onError });
    else update.mutate({ id: user.id, body }, { onSuccess: () => onSaved('UserUpdated'), onError });
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {mutation.isError && !hasFieldError ? (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label={t('UaFirstName')} autoComplete="off" required {...form.register('FirstName')} error={fieldErrorText(errors.FirstName?.message)} data-autofocus />
          <TextInput label={t('UaLastName')} autoComplete="off" required {...form.register('LastName')} error={fieldErrorText(errors.LastName?.message)} />
        </SimpleGrid>
        <TextInput
          label={t('UaEmail')}
          description={t('UaEmailHint')}
          type="email"
          autoComplete="off"
          required
          readOnly={!creating}
          variant={creating ? 'default' : 'filled'}
          {...form.register('email')}
          error={fieldErrorText(errors.email?.message)}
        />
        <TextInput
          label={t('UaPassword')}
          description={t(creating ? 'UaPasswordCreateHint' : 'UaPasswordEditHint')}
          type="password"
          autoComplete="new-password"
          {...form.register('password')}
          error={fieldErrorText(errors.password?.message)}
        />
        <NativeSelect
          label={t('UaLanguage')}
          description={t('UaLanguageHint')}
          data={languageOptions.map((o) => ({ value: o.value, label: o.label }))}
          {...form.register('lang')}
          error={fieldErrorText(errors.lang?.message)}
        />
        <Controller
          control={form.control}
          name="isAdmin"
          render={({ field }) => (
            <Switch
              label={t('UaIsAdmin')}
              description={t('UaIsAdminHint')}
              name={field.name}
              ref={field.ref}
              checked={field.value ?? false}
              disabled={isSelf}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              error={fieldErrorText(errors.isAdmin?.message)}
            />
          )}
        />
        {isAdmin ? (
          <Text size="sm" c="dimmed">
            {t('UaUnitsAdminNote')}
          </Text>
        ) : (
          <Controller
            control={form.control}
            name="imeis"
            render={({ field }) => (
              <UnitAccessPicker value={field.value ?? []} onChange={field.onChange} error={fieldErrorText(errors.imeis?.message ?? errors.imeis?.[0]?.message)} />
            )}
          />
        )}
        {creating ? (
          <Text size="sm" c="dimmed">
            {t('UaWelcomeNote')}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('UaCancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {t('UaSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
