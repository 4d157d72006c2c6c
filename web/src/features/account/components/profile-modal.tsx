import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Modal, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { profileUpdateSchema, type Profile } from '../../../../../shared/schemas/auth';
import { defaultPhoneCountry, PHONE_INPUT_MAX, phoneFormValues } from '../../../../../shared/validators/phone';
import { errorMessage } from '../../../app/api-client';
import { parseLanguage } from '../../../app/preferences';
import { phoneCountryOptions } from '../../registration/countries';
import { profileQueryKey, updateProfile, useProfile } from '../../auth/api/profile';
import { languageOptions } from '../../../i18n/i18n';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';

type FormValues = z.input<typeof profileUpdateSchema>;
// The login route has it already; importing it here statically would regroup the bundles so that the
// login route also loads dialog-only UI code (npm run size).
const PasswordTextInput = lazy(() => import('../../../ui/password-text-input').then((m) => ({ default: m.PasswordTextInput })));
const fields = ['FirstName', 'LastName', 'phone', 'phoneCountry', 'lang', 'EnableTwoFactorAuth', 'current_password'] as const;

function ProfileForm({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const lang = parseLanguage(i18n.language) ?? profile.lang;
  const countryOptions = useMemo(() => phoneCountryOptions(lang).map((o) => ({ value: o.value, label: o.label })), [lang]);
  // The stored number's own country, else the profile language's (Sweden, or Norway for Norwegian).
  const stored = phoneFormValues(profile.phone, defaultPhoneCountry(profile.lang));
  const form = useForm<FormValues, unknown, z.output<typeof profileUpdateSchema>>({
    resolver: zodResolver(profileUpdateSchema),
    defaultValues: {
      FirstName: profile.FirstName,
      LastName: profile.LastName,
      // Shown in national format (international for another country's number); stored as E.164.
      phone: stored.phone,
      phoneCountry: stored.country,
      lang: profile.lang,
      EnableTwoFactorAuth: profile.EnableTwoFactorAuth,
    },
  });
  const mutation = useMutation({
    mutationFn: updateProfile,
    onSuccess: (saved) => {
      queryClient.setQueryData(profileQueryKey, saved);
      notifications.show({ color: 'green', message: t('ProfileSaved') });
      onClose();
    },
    onError: (error) => applyServerFieldErrors(error, fields, form.setError),
  });
  const { errors } = form.formState;
  const hasFieldError = fields.some((f) => errors[f]);
  // Turning two-factor login off takes the current password (the server asks for it too).
  const turningTwoFactorOff = profile.EnableTwoFactorAuth && !form.watch('EnableTwoFactorAuth');

  const submit = form.handleSubmit((values) => {
    if (!turningTwoFactorOff) {
      const { current_password: _unused, ...rest } = values;
      mutation.mutate(rest);
      return;
    }
    if (!values.current_password) {
      form.setError('current_password', { message: 'SpecifyCurrentPassword' }, { shouldFocus: true });
      return;
    }
    mutation.mutate(values);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack>
        {mutation.isError && !hasFieldError ? (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        ) : null}
        <Text size="sm" c="dimmed">
          {t('ProfileLoginName', { username: profile.Username, email: profile.Email })}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label={t('FirstName')}
            autoComplete="given-name"
            required
            {...form.register('FirstName')}
            error={fieldErrorText(errors.FirstName?.message)}
            data-autofocus
          />
          <TextInput
            label={t('LastName')}
            autoComplete="family-name"
            required
            {...form.register('LastName')}
            error={fieldErrorText(errors.LastName?.message)}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          {/* A native select: the country list is long, and the browser's own control is the lightest. */}
          <NativeSelect label={t('PhoneCountry')} data={countryOptions} {...form.register('phoneCountry')} error={fieldErrorText(errors.phoneCountry?.message)} />
          <TextInput
            label={t('PhoneNumber')}
            description={t('PhoneNumberHint')}
            type="tel"
            autoComplete="tel"
            maxLength={PHONE_INPUT_MAX}
            {...form.register('phone')}
            error={fieldErrorText(errors.phone?.message)}
          />
        </SimpleGrid>
        <NativeSelect
          label={t('MessageLanguage')}
          description={t('MessageLanguageHint')}
          data={languageOptions.map((o) => ({ value: o.value, label: o.label }))}
          {...form.register('lang')}
          error={fieldErrorText(errors.lang?.message)}
        />
        {/* Mantine keeps a switch's state itself: it needs a controlled value, not register's ref. */}
        <Controller
          control={form.control}
          name="EnableTwoFactorAuth"
          render={({ field }) => (
            <Switch
              label={t('TwoFactorLogin')}
              description={t('TwoFactorLoginHint')}
              name={field.name}
              ref={field.ref}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              error={fieldErrorText(errors.EnableTwoFactorAuth?.message)}
            />
          )}
        />
        {turningTwoFactorOff ? (
          <Suspense fallback={null}>
            <PasswordTextInput
              label={t('CurrentPassword')}
              description={t('TwoFactorOffNeedsPassword')}
              autoComplete="current-password"
              required
              {...form.register('current_password')}
              error={fieldErrorText(errors.current_password?.message)}
            />
          </Suspense>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "My profile": name, phone, message language and two-factor login (GET/PUT /api/v1/user/profile). */
export function ProfileModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const profile = useProfile();
  return (
    <Modal opened={opened} onClose={onClose} title={t('MyProfile')} centered size="lg" closeButtonProps={{ 'aria-label': t('Cancel') }}>
      {profile.isPending ? (
        <Group justify="center" py="lg" role="status" aria-live="polite">
          <Loader role="progressbar" aria-label={t('Loading')} />
        </Group>
      ) : profile.isError ? (
        <Alert color="red" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(profile.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void profile.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        // Keyed by the loaded profile: the form starts from the server's values each time it opens.
        <ProfileForm key={profile.dataUpdatedAt} profile={profile.data} onClose={onClose} />
      )}
    </Modal>
  );
}
