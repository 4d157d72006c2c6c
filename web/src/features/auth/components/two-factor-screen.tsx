import { Alert, Button, Checkbox, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import IconCircleCheck from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { startSession } from '../../../app/session';
import { currentLanguage } from '../../../i18n/i18n';
import { cancelPendingLogin, currentPendingLogin, rememberTrustedBrowser, requestCode, savePendingLogin, verifyCode } from '../api/two-factor';
import { afterResend, canVerify, formatCountdown, resendNow, secondsLeft, type PendingLogin } from '../api/two-factor-state';

type Notice = { kind: 'sent' } | { kind: 'error'; error: unknown } | null;

/** The server no longer knows the challenge (expired after 30 minutes, or used): only a new login helps. */
const isChallengeGone = (error: unknown): boolean => error instanceof ApiError && error.key === 'LoginAgain';

/** Seconds until Resend opens, ticking once a second from the persisted deadline. */
function useSecondsLeft(pending: PendingLogin): number {
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(pending, now);
  useEffect(() => {
    setNow(Date.now());
    if (secondsLeft(pending, Date.now()) === 0) return;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [pending]);
  return left;
}

/**
 * The code screen of a two-factor login (spec section 4, outcome 3): the code is e-mailed when the
 * screen first shows; Resend opens when the countdown (03:00, then 00:10) reaches 00:00; Verify
 * needs more than 5 characters; a failed verification shows the error under the field and opens
 * Resend at once; Cancel forgets the login. Every change of the countdown is persisted, so a reload
 * keeps this screen and its timer.
 */
export function TwoFactorScreen({ initial, onRestart }: { initial: PendingLogin; onRestart: (error: unknown) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(initial);
  const [code, setCode] = useState('');
  const [trust, setTrust] = useState(false);
  const [codeError, setCodeError] = useState<unknown>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [isVerifying, setVerifying] = useState(false);
  const [isSending, setSending] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const left = useSecondsLeft(pending);

  async function update(next: PendingLogin) {
    setPending(next);
    await savePendingLogin(next);
  }

  async function send(next: PendingLogin, resent: boolean) {
    setSending(true);
    setNotice(null);
    await update(next);
    try {
      await requestCode(next, currentLanguage());
      if (resent) setNotice({ kind: 'sent' });
    } catch (error) {
      if (isChallengeGone(error)) return restart(error);
      setNotice({ kind: 'error', error });
      // The code did not go out: let the user ask again at once.
      await update(resendNow(next, Date.now()));
    } finally {
      setSending(false);
    }
  }

  // The first code goes out when the screen first shows; the stored record (read again here, not
  // from props) says whether it already went, so a reload or a re-run effect sends no second one.
  useEffect(() => {
    const stored = currentPendingLogin();
    if (stored && !stored.codeRequested) void send({ ...stored, codeRequested: true }, false);
    // Once, on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function resend() {
    setCodeError(null);
    await send(afterResend(pending, Date.now()), true);
    codeRef.current?.focus();
  }

  async function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canVerify(code) || isVerifying) return;
    setVerifying(true);
    setCodeError(null);
    setNotice(null);
    try {
      const { user, fingerprint } = await verifyCode(pending, code, trust);
      if (trust && fingerprint) {
        await rememberTrustedBrowser([pending.username, user.Username ?? '', user.Email], fingerprint);
      }
      // Storing the user logs in: the public-route guard moves on to the landing route.
      await startSession(user);
    } catch (error) {
      if (isChallengeGone(error)) return restart(error);
      setCodeError(error);
      setVerifying(false);
      await update(resendNow(pending, Date.now()));
      codeRef.current?.focus();
    }
  }

  function restart(error: unknown) {
    cancelPendingLogin();
    onRestart(error);
  }

  function cancel() {
    cancelPendingLogin();
    // Logged out, the member route sends on to the login form.
    void navigate(paths.realtimeTracking, { replace: true });
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h2" ta="center">
        {t('TwoFactorTitle')}
      </Title>
      <Text size="sm" ta="center">
        {t('TwoFactorIntro')}
      </Text>

      {notice?.kind === 'sent' ? (
        <Alert variant="light" color="green" icon={<IconCircleCheck aria-hidden />} role="status">
          {t('CodeResent')}
        </Alert>
      ) : null}
      {notice?.kind === 'error' ? (
        <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {errorMessage(notice.error)}
        </Alert>
      ) : null}

      <form onSubmit={(event) => void verify(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('LoginCode')}
            name="code"
            ref={codeRef}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\s+/g, ''))}
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={32}
            autoFocus
            error={codeError ? errorMessage(codeError) : undefined}
            size="md"
            styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
          />
          <Checkbox
            label={t('TrustThisBrowser')}
            description={t('TrustThisBrowserHint')}
            name="trust_browser"
            checked={trust}
            onChange={(event) => setTrust(event.currentTarget.checked)}
          />
          <Button type="submit" fullWidth size="md" disabled={!canVerify(code)} loading={isVerifying}>
            {t('Verify')}
          </Button>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" role="timer" aria-atomic="true">
              {left > 0 ? t('ResendIn', { time: formatCountdown(left) }) : t('ResendAvailable')}
            </Text>
            <Button variant="light" size="sm" onClick={() => void resend()} disabled={left > 0} loading={isSending} style={{ flexShrink: 0 }}>
              {t('ResendCode')}
            </Button>
          </Group>
          <Button variant="default" fullWidth onClick={cancel}>
            {t('Cancel')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
