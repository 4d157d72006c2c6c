/**
 * "A new version is available - Reload": shown at the foot of the logged-in pages while a new
 * service worker waits. It never blocks the page and never reloads by itself; while the driver has
 * unsent changes or an open form (busy.ts), Reload waits and the prompt says why.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { loadFeatureMessages } from '../i18n/i18n';
import { isBusy, subscribeBusy } from './busy';
import { activateWaiting, subscribeWaiting, waitingWorker } from './register';

export function UpdatePrompt() {
  const { t } = useTranslation();
  const waiting = useSyncExternalStore(subscribeWaiting, waitingWorker);
  const busy = useSyncExternalStore(subscribeBusy, isBusy);
  const [textsLoaded, setTextsLoaded] = useState(false);
  const [dismissed, setDismissed] = useState<ServiceWorker | null>(null);
  useEffect(() => {
    if (waiting && !textsLoaded) void loadFeatureMessages('my-trips').then(() => setTextsLoaded(true));
  }, [waiting, textsLoaded]);
  if (!waiting || !textsLoaded || dismissed === waiting) return null;
  return (
    <Paper
      role="status"
      aria-live="polite"
      shadow="md"
      withBorder
      p="sm"
      radius="md"
      style={{ position: 'fixed', insetInline: 12, bottom: 12, zIndex: 300, maxWidth: 520, marginInline: 'auto' }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <div>
          <Text size="sm" fw={600}>
            {t('AppUpdateAvailable')}
          </Text>
          {busy ? (
            <Text size="sm" c="dimmed">
              {t('AppUpdateAfterSync')}
            </Text>
          ) : null}
        </div>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setDismissed(waiting)}>
            {t('AppUpdateLater')}
          </Button>
          <Button size="xs" disabled={busy} onClick={activateWaiting}>
            {t('AppUpdateReload')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
