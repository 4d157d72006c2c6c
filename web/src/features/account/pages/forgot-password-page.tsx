import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { forgotPasswordRequestSchema } from '../../../../../shared/schemas/auth';
import { errorMessage } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { paths } from '../../../app/paths';
import { currentLanguage } from '../../../i18n/i18n';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { requestResetLink } from '../api/password-reset';
import { PublicPage } from '../components/public-page';

const formSchema = forgotPasswordRequestSchema.pick({ email_address: true });
type FormValues = z.input<typeof formSchema>;

/** /user/forgot-password: e-mails a reset link; success returns to the login page with the PasswordResetLink notice. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const brand = useBrand();
  const navigate = useNavigate();
  const form = useForm<FormValues, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: { email_address: '' },
  });
  const mutation = useMutation({
    mutationFn: (email: string) => requestResetLink({ email_address: email, subsite_id: brand.id, lang: currentLanguage() }),
    onSuccess: () => navigate(paths.login, { replace: true, state: { notice: 'reset-link-sent' } }),
    onError: (error) => applyServerFieldErrors(error, ['email_address'], form.setError),
  });
  const emailError = form.formState.errors.email_address?.message;
  const showGeneralError = mutation.isError && !emailError;

  return (
    <PublicPage title={t('ForgotPasswordTitle')} intro={t('ForgotPasswordIntro')}>
      {showGeneralError ? (
        <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {errorMessage(mutation.error)}
        </Alert>
      ) : null}
      <form onSubmit={form.handleSubmit((values) => mutation.mutate(values.email_address))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('EmailAddress')}
            type="email"
            autoComplete="email"
            required
            {...form.register('email_address')}
            error={fieldErrorText(emailError)}
          />
          <Button type="submit" fullWidth size="md" loading={mutation.isPending}>
            {t('SendResetLink')}
          </Button>
          <Group justify="center">
            <Button component={Link} to={paths.login} variant="subtle">
              {t('Cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PublicPage>
  );
}
