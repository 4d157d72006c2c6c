import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { alertOptOutRequestSchema } from '../../../../../shared/schemas/auth';
import { errorMessage } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { paths } from '../../../app/paths';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { optOutOfAlerts } from '../api/alert-opt-out';
import { PublicPage } from '../components/public-page';
import { PasswordTextInput } from '../../../ui/password-text-input';

type FormValues = z.input<typeof alertOptOutRequestSchema>;

/**
 * The alert opt-out page: confirmed with username and password, optionally stopping push
 * notifications too; the server's message shows on the login page it returns to.
 */
export function AlertOptOutPage() {
  const { t } = useTranslation();
  const brand = useBrand();
  const navigate = useNavigate();
  const form = useForm<FormValues, unknown, z.output<typeof alertOptOutRequestSchema>>({
    resolver: zodResolver(alertOptOutRequestSchema),
    defaultValues: { nt_useremail: '', nt_password: '', remove_push: false, subsite_id: brand.id },
  });
  const mutation = useMutation({
    mutationFn: optOutOfAlerts,
    onSuccess: (message) => navigate(paths.login, { replace: true, state: { message } }),
    onError: (error) => applyServerFieldErrors(error, ['nt_useremail', 'nt_password'], form.setError),
  });
  const { errors } = form.formState;
  const fieldError = errors.nt_useremail ?? errors.nt_password;

  return (
    <PublicPage title={t('AlertOptOutTitle')} intro={t('AlertOptOutIntro')}>
      {mutation.isError && !fieldError ? (
        <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {errorMessage(mutation.error)}
        </Alert>
      ) : null}
      <form onSubmit={form.handleSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('UsernameOrEmail')}
            autoComplete="username"
            required
            {...form.register('nt_useremail')}
            error={fieldErrorText(errors.nt_useremail?.message)}
          />
          <PasswordTextInput
            label={t('Password')}
            autoComplete="current-password"
            required
            {...form.register('nt_password')}
            error={fieldErrorText(errors.nt_password?.message)}
          />
          <Controller
            control={form.control}
            name="remove_push"
            render={({ field }) => (
              <Checkbox
                label={t('StopPushToo')}
                description={t('StopPushTooHint')}
                name={field.name}
                ref={field.ref}
                checked={field.value ?? false}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
              />
            )}
          />
          <Group grow>
            <Button component={Link} to={paths.login} variant="default" size="md">
              {t('Cancel')}
            </Button>
            <Button type="submit" size="md" loading={mutation.isPending}>
              {t('StopAlerts')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PublicPage>
  );
}
