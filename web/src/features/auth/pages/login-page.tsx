import { Alert, Anchor, Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import IconCircleCheck from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import IconInfoCircle from '@tabler/icons-react/dist/esm/icons/IconInfoCircle.mjs';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { LoginForm } from '../../../../../shared/schemas/auth';
import { ApiError, errorMessage } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { isKnownMessage } from '../../../i18n/i18n';
import { paths } from '../../../app/paths';
import { startSession } from '../../../app/session';
import { TwoFactorScreen } from '../components/two-factor-screen';
import { login } from '../api/login';
import { loginNoticeText } from '../api/login-notices';
import { validateLoginForm, type LoginFieldErrors } from '../api/login-validation';
import { currentPendingLogin, savePendingLogin } from '../api/two-factor';
import { startPendingLogin, type PendingLogin } from '../api/two-factor-state';
import { PasswordTextInput } from '../../../ui/password-text-input';

/** The login form, replaced by the code screen while a two-factor login is in progress (also after a reload). */
export function LoginPage() {
  const [pending, setPending] = useState<PendingLogin | null>(() => currentPendingLogin());
  // Why the code screen gave way to the form again (its challenge expired): shown above the form.
  const [restartError, setRestartError] = useState<unknown>(null);
  if (pending) {
    return (
      <TwoFactorScreen
        initial={pending}
        onRestart={(error) => {
          setRestartError(error);
          setPending(null);
        }}
      />
    );
  }
  return <LoginFormScreen initialFailure={restartError} onTwoFactor={setPending} />;
}

function LoginFormScreen({ initialFailure, onTwoFactor }: { initialFailure: unknown; onTwoFactor: (pending: PendingLogin) => void }) {
  const { t } = useTranslation();
  const brand = useBrand();
  const location = useLocation();
  const [search] = useSearchParams();
  const notice = loginNoticeText(location.state, search, t, isKnownMessage);
  const [failure, setFailure] = useState<unknown>(initialFailure);
  const [showPassword, setShowPassword] = useState(false);
  const [values, setValues] = useState<LoginForm>({ username: '', password: '', remember_me: false });
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  function update(next: Partial<LoginForm>) {
    const merged = { ...values, ...next };
    setValues(merged);
    // After the first submit, errors follow the typing (as react-hook-form's re-validation does).
    if (submitted) setErrors(validateLoginForm(merged).errors);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const checked = validateLoginForm(values);
    setErrors(checked.errors);
    if (checked.errors.username) return usernameRef.current?.focus();
    if (checked.errors.password) return passwordRef.current?.focus();

    setFailure(null);
    setSubmitting(true);
    try {
      const answer = await login(checked.values, brand.id);
      if ('user' in answer) {
        // The public-route guard sends the now logged-in user to the landing route.
        await startSession(answer.user);
      } else {
        const next = startPendingLogin(answer.twoFactor, checked.values.username, checked.values.remember_me, Date.now());
        await savePendingLogin(next);
        onTwoFactor(next);
      }
    } catch (error) {
      setFailure(error);
      setSubmitting(false);
    }
  }

  function failureText(error: unknown): string {
    // No login route answering (404) or a gateway without a backend (502-504): say the service is down.
    if (error instanceof ApiError && [404, 502, 503, 504].includes(error.status)) return t('LoginUnavailable');
    return errorMessage(error);
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2" ta="center">
        {t('LoginHeading', { brand: brand.title })}
      </Title>

      {brand.banner ? (
        <Alert variant="light" color="brand" icon={<IconInfoCircle aria-hidden />} role="note">
          <Text size="sm">{t(brand.banner.textKey)}</Text>
          <Anchor href={brand.banner.url} size="sm" fw={600}>
            {t(brand.banner.linkKey)}
          </Anchor>
        </Alert>
      ) : null}

      {notice ? (
        <Alert variant="light" color="green" icon={<IconCircleCheck aria-hidden />} role="status">
          {notice}
        </Alert>
      ) : null}

      {failure ? (
        <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {failureText(failure)}
        </Alert>
      ) : null}

      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('UsernameOrEmail')}
            autoComplete="username"
            required
            ref={usernameRef}
            name="username"
            value={values.username}
            onChange={(event) => update({ username: event.currentTarget.value })}
            error={errors.username ? t(errors.username) : undefined}
          />
          <PasswordTextInput
            label={t('Password')}
            autoComplete="current-password"
            required
            visible={showPassword}
            onVisibilityChange={setShowPassword}
            ref={passwordRef}
            name="password"
            value={values.password}
            onChange={(event) => update({ password: event.currentTarget.value })}
            error={errors.password ? t(errors.password) : undefined}
          />
          <Group justify="space-between" gap="xs">
            <Checkbox
              label={t('RememberMe')}
              name="remember_me"
              checked={values.remember_me}
              onChange={(event) => update({ remember_me: event.currentTarget.checked })}
            />
            <Anchor component={Link} to={paths.forgotPassword} size="sm">
              {t('ForgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth size="md" loading={isSubmitting}>
            {t('Login')}
          </Button>
        </Stack>
      </form>

      <Text size="sm" ta="center">
        {t('NoAccountYet')}{' '}
        <Anchor component={Link} to={paths.register} fw={600}>
          {t('RegisterLink')}
        </Anchor>
      </Text>
    </Stack>
  );
}
