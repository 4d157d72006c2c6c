import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changePasswordRequestSchema, type ChangePasswordRequest, type SessionUser } from '../../../../../shared/schemas/auth';
import { ApiError, errorMessage } from '../../../app/api-client';
import { translateMessage } from '../../../i18n/i18n';
import { profileQueryKey } from '../api/profile';
import { changePassword } from '../api/session-calls';
import { PasswordTextInput } from '../../../ui/password-text-input';

interface SetPasswordModalProps {
  user: SessionUser;
  opened: boolean;
  onClose: () => void;
}

/**
 * Opened from the avatar (spec section 4): the current password first, then the new one twice.
 * Save only when all are filled in and the new ones are equal; a password that breaks the rule
 * shows PasswordMustInclude under the field (checked here with the shared schema, and by the
 * server), a wrong current password its key under that field.
 */
export function SetPasswordModal({ user, opened, onClose }: SetPasswordModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [ruleError, setRuleError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: ChangePasswordRequest) => changePassword(body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: profileQueryKey });
      notifications.show({ color: 'green', message: t('User updated successfully.') });
      close();
    },
  });

  function close() {
    setCurrentPassword('');
    setPassword('');
    setConfirmation('');
    setRuleError(null);
    mutation.reset();
    onClose();
  }

  const mismatch = password !== '' && confirmation !== '' && password !== confirmation;
  const canSave = currentPassword !== '' && password !== '' && confirmation !== '' && !mismatch;
  const fieldErrors = mutation.error instanceof ApiError ? mutation.error.fieldErrors : {};
  const serverPasswordError = fieldErrors['password']?.[0];
  const currentPasswordError = fieldErrors['current_password']?.[0];
  const passwordError = ruleError ?? serverPasswordError;

  function save() {
    if (!canSave) return;
    const parsed = changePasswordRequestSchema.safeParse({ userId: user.ID, email: user.Email, password, current_password: currentPassword });
    if (!parsed.success) {
      setRuleError(parsed.error.issues.find((i) => i.path[0] === 'password')?.message ?? 'PasswordMustInclude');
      return;
    }
    setRuleError(null);
    mutation.mutate(parsed.data);
  }

  return (
    <Modal opened={opened} onClose={close} title={t('SetNewPassword')} centered closeButtonProps={{ 'aria-label': t('Cancel') }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
        noValidate
      >
        <Stack>
          {mutation.isError && !serverPasswordError && !currentPasswordError ? (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          ) : null}
          <Text size="sm" c="dimmed">
            {t('OtherSessionsEnd')}
          </Text>
          <PasswordTextInput
            label={t('CurrentPassword')}
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => {
              setCurrentPassword(event.currentTarget.value);
              if (currentPasswordError) mutation.reset();
            }}
            error={currentPasswordError ? translateMessage(currentPasswordError) : undefined}
            data-autofocus
          />
          <PasswordTextInput
            label={t('NewPassword')}
            autoComplete="new-password"
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setRuleError(null);
            }}
            error={passwordError ? translateMessage(passwordError) : undefined}
          />
          <PasswordTextInput
            label={t('ConfirmNewPassword')}
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={mismatch ? t('PasswordNotMatch') : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={!canSave} loading={mutation.isPending}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
