import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { RESET_CODE_PARAM, resetPasswordRequestSchema } from '../../../../../shared/schemas/auth';
import { errorMessage } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { paths } from '../../../app/paths';
import { translateMessage } from '../../../i18n/i18n';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { resetPassword } from '../api/password-reset';
import { PublicPage } from '../components/public-page';
import { PasswordTextInput } from '../../../ui/password-text-input';

type FormValues = z.input<typeof resetPasswordRequestSchema>;

/** The link is unusable (expired, used, unknown): say why and offer a new one. */
function CodeProblem({ messageKey }: { messageKey: string }) {
  const { t } = useTranslation();
  return (
    <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
      {translateMessage(messageKey)}{' '}
      <Anchor component={Link} to={paths.forgotPassword} fw={600} inherit>
        {t('RequestNewResetLink')}
      </Anchor>
    </Alert>
  );
}

/**
 * /user/reset-password?_c=<code>: a new password and its confirmation (show/hide), checked with the
 * shared schema; success returns to the login page with the PasswordChanged notice.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const brand = useBrand();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const code = search.get(RESET_CODE_PARAM) ?? '';
  const form = useForm<FormValues, unknown, z.output<typeof resetPasswordRequestSchema>>({
    resolver: zodResolver(resetPasswordRequestSchema),
    defaultValues: { subsite_id: brand.id, code, password: '', password_confirmation: '' },
  });
  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: () => navigate(paths.login, { replace: true, state: { notice: 'password-changed' } }),
    onError: (error) => applyServerFieldErrors(error, ['code', 'password', 'password_confirmation'], form.setError),
  });
  const { errors } = form.formState;
  const fieldError = errors.code ?? errors.password ?? errors.password_confirmation;

  return (
    <PublicPage title={t('ResetPasswordTitle')} intro={t('ResetPasswordIntro')}>
      {!code ? <CodeProblem messageKey="InvalidResetCode" /> : null}
      {errors.code?.message ? <CodeProblem messageKey={errors.code.message} /> : null}
      {mutation.isError && !fieldError ? (
        <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {errorMessage(mutation.error)}
        </Alert>
      ) : null}
      <form onSubmit={form.handleSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack gap="md">
          <PasswordTextInput
            label={t('NewPassword')}
            description={t('PasswordRule')}
            autoComplete="new-password"
            required
            {...form.register('password')}
            error={fieldErrorText(errors.password?.message)}
          />
          <PasswordTextInput
            label={t('ConfirmNewPassword')}
            autoComplete="new-password"
            required
            {...form.register('password_confirmation')}
            error={fieldErrorText(errors.password_confirmation?.message)}
          />
          <Group grow>
            <Button component={Link} to={paths.login} variant="default" size="md">
              {t('Cancel')}
            </Button>
            <Button type="submit" size="md" loading={mutation.isPending} disabled={!code}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PublicPage>
  );
}
