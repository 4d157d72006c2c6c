/**
 * Creating a key: a name and the scopes (checkboxes), checked with the server's own schema; then
 * the key, shown this once, with a copy button and the warning that it cannot be shown again.
 */
import { Alert, Button, Checkbox, Code, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiKeyCreateSchema, apiKeyScopes, type ApiKeyCreated, type ApiKeyScope } from '../../../../../shared/schemas/api-keys';
import { ApiError, errorMessage } from '../../../app/api-client';
import { createApiKey } from '../api/api-keys-api';
import { scopeLabelKeys } from '../scope-labels';

export function CreateKeyModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  const close = () => {
    setName('');
    setScopes([]);
    setErrors({});
    setCreated(null);
    onClose();
  };

  const submit = async () => {
    const checked = apiKeyCreateSchema.safeParse({ name, scopes });
    if (!checked.success) {
      const first = (field: string) => checked.error.issues.find((i) => String(i.path[0]) === field)?.message;
      const nameKey = first('name');
      const scopesKey = first('scopes');
      setErrors({ ...(nameKey ? { name: t(nameKey) } : {}), ...(scopesKey ? { scopes: t(scopesKey) } : {}) });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      setCreated(await createApiKey({ name, scopes }));
      onCreated();
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      setErrors({
        ...(fields['name']?.[0] ? { name: t(fields['name'][0]) } : {}),
        ...(Object.keys(fields).some((f) => f.startsWith('scopes')) ? { scopes: t('InvalidApiKeyScope') } : {}),
        ...(fields['name'] || Object.keys(fields).some((f) => f.startsWith('scopes')) ? {} : { form: errorMessage(error) }),
      });
    } finally {
      setPending(false);
    }
  };

  if (created) {
    return (
      <Modal opened={opened} onClose={close} title={t('ApiKeyCreatedTitle')} centered size="lg" closeButtonProps={{ 'aria-label': t('ApiKeyClose') }}>
        <Stack gap="md">
          <Alert color="orange" role="alert" title={t('ApiKeyValue')}>
            {t('ApiKeyShownOnce')}
          </Alert>
          <Code block data-testid="api-key-value" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', userSelect: 'all' }} aria-label={t('ApiKeyValue')}>
            {created.key}
          </Code>
          <Group justify="space-between" gap="sm">
            <CopyButton value={created.key}>
              {({ copied, copy }) => (
                <Button variant={copied ? 'light' : 'filled'} color={copied ? 'green' : undefined} onClick={copy} aria-live="polite">
                  {copied ? t('ApiKeyCopied') : t('ApiKeyCopy')}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={close}>
              {t('ApiKeyDone')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <Modal opened={opened} onClose={close} title={t('ApiKeyCreateTitle')} centered closeButtonProps={{ 'aria-label': t('ApiKeyClose') }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Stack gap="md">
          <TextInput
            label={t('ApiKeyNameLabel')}
            description={t('ApiKeyNameHint')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            maxLength={120}
            required
            data-autofocus
          />
          <Checkbox.Group label={t('ApiKeyScopesLabel')} value={scopes} onChange={(v) => setScopes(v as ApiKeyScope[])} error={errors.scopes} required>
            <Stack gap="xs" mt="xs">
              {apiKeyScopes.map((scope) => (
                <Checkbox key={scope} value={scope} label={`${t(scopeLabelKeys[scope])} (${scope})`} />
              ))}
            </Stack>
          </Checkbox.Group>
          {errors.form ? (
            <Alert color="red" role="alert">
              {errors.form}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {t('ApiKeyCreateSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
