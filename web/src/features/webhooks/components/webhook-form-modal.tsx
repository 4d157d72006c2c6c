/**
 * Create or edit a webhook: the endpoint URL, the event types (checkboxes) and whether it is active.
 * The server's field errors (message keys) show on their fields; anything else above the buttons.
 */
import { Alert, Button, Checkbox, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { webhookEventTypes, type Webhook, type WebhookEventType } from '../../../../../shared/schemas/webhooks';
import { ApiError, errorMessage } from '../../../app/api-client';
import { translateMessage } from '../../../i18n/i18n';

export interface WebhookFormValues {
  url: string;
  events: WebhookEventType[];
  active: boolean;
}

interface Props {
  /** The webhook being edited, or null for a new one. */
  editing: Webhook | null;
  onClose: () => void;
  onSubmit: (values: WebhookFormValues) => Promise<void>;
}

export function WebhookFormModal({ editing, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const [url, setUrl] = useState(editing?.url ?? 'https://');
  const [events, setEvents] = useState<WebhookEventType[]>(editing?.events ?? []);
  const [active, setActive] = useState(editing?.active ?? true);
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<{ url?: string; events?: string }>({});
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local = { ...(url.trim() === '' ? { url: 'WebhookUrlRequired' } : {}), ...(events.length === 0 ? { events: 'WebhookEventsRequired' } : {}) };
    setFieldErrors(local);
    setError(null);
    if (local.url || local.events) return;
    setPending(true);
    try {
      await onSubmit({ url: url.trim(), events, active });
    } catch (failure) {
      if (failure instanceof ApiError && Object.keys(failure.fieldErrors).length) {
        const first = (prefix: string) => Object.entries(failure.fieldErrors).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1][0];
        const next = { url: first('url'), events: first('events') };
        setFieldErrors(next);
        const other = Object.entries(failure.fieldErrors).find(([k]) => !k.startsWith('url') && !k.startsWith('events'));
        if (other) setError(translateMessage(other[1][0] ?? 'SomethingWentWrong'));
      } else setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t(editing ? 'WebhookEditTitle' : 'WebhookNewTitle')} centered size="lg" closeButtonProps={{ 'aria-label': t('WebhookClose') }}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('WebhookUrl')}
            description={t('WebhookUrlHint')}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={fieldErrors.url ? translateMessage(fieldErrors.url) : undefined}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            required
            data-autofocus
            data-testid="webhook-url"
          />
          <Checkbox.Group
            label={t('WebhookEvents')}
            value={events}
            onChange={(value) => setEvents(webhookEventTypes.filter((type) => value.includes(type)))}
            error={fieldErrors.events ? translateMessage(fieldErrors.events) : undefined}
            required
          >
            <Stack gap={8} mt={6}>
              {webhookEventTypes.map((type) => (
                <Checkbox key={type} value={type} label={t(`WebhookEvent_${type}`)} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Switch label={t('WebhookActive')} description={t('WebhookActiveHint')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={pending} data-testid="webhook-save">
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
