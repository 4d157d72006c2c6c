/**
 * Alarm notifications on this device (docs/decisions/0048-web-push.md): the state of push on this
 * browser for the signed-in user, and the one button that changes it. Which alarms reach the user
 * is the alarm receivers' business (an administrator links the user and turns push on).
 */
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconBell from '@tabler/icons-react/dist/esm/icons/IconBell.mjs';
import IconBellOff from '@tabler/icons-react/dist/esm/icons/IconBellOff.mjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';
import { usePush, type PushState } from '../use-push';

const STATE_KEYS: Readonly<Record<Exclude<PushState, 'checking'>, string>> = {
  unsupported: 'PushUnsupported',
  denied: 'PushDenied',
  disabled: 'PushDisabled',
  enabled: 'PushEnabled',
};

export function PushControl() {
  const { t } = useTranslation();
  const { state, busy, enable, disable } = usePush();
  const [failure, setFailure] = useState<string | null>(null);

  const run = (action: () => Promise<PushState>, doneKey: string) => {
    setFailure(null);
    action()
      .then((next) => {
        if (next === 'enabled' || next === 'disabled') notifications.show({ color: 'green', message: t(doneKey) });
      })
      .catch((error: unknown) => setFailure(error instanceof Error && 'status' in error ? errorMessage(error) : t('PushFailed')));
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="push-control-title" data-push-state={state}>
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          {state === 'enabled' ? <IconBell size={20} aria-hidden /> : <IconBellOff size={20} aria-hidden />}
          <Title order={2} size="h4" id="push-control-title">
            {t('PushTitle')}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {t('PushIntro')}
        </Text>
        <Text size="sm" role="status" aria-live="polite" fw={state === 'enabled' ? 600 : undefined}>
          {state === 'checking' ? '' : t(STATE_KEYS[state])}
        </Text>
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        {state === 'disabled' || state === 'enabled' ? (
          <Group>
            {state === 'enabled' ? (
              <Button variant="default" loading={busy} onClick={() => run(disable, 'PushTurnedOff')}>
                {t('PushDisable')}
              </Button>
            ) : (
              <Button loading={busy} onClick={() => run(enable, 'PushTurnedOn')}>
                {t('PushEnable')}
              </Button>
            )}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
