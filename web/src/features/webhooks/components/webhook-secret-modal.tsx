/** The signing secret of a new webhook, shown this once, with a copy button that says when it copied. */
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import IconCheck from '@tabler/icons-react/dist/esm/icons/IconCheck.mjs';
import IconCopy from '@tabler/icons-react/dist/esm/icons/IconCopy.mjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function WebhookSecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(secret).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('WebhookSecretTitle')} centered size="lg" closeButtonProps={{ 'aria-label': t('WebhookClose') }}>
      <Stack gap="md">
        <Alert color="yellow" variant="light">
          {t('WebhookSecretIntro')}
        </Alert>
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <TextInput
            label={t('WebhookSecretLabel')}
            value={secret}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            style={{ flex: 1, minWidth: 0 }}
            data-testid="webhook-secret"
          />
          <Button variant={copied ? 'light' : 'default'} color={copied ? 'green.8' : undefined} onClick={copy} leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}>
            <span aria-live="polite">{t(copied ? 'WebhookCopied' : 'WebhookCopy')}</span>
          </Button>
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            {t('WebhookDone')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
