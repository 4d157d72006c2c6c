import { Alert, Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '../../../../../shared/schemas/auth';
import { changePassword } from '../api/session-calls';

interface SetPasswordModalProps {
  user: SessionUser;
  opened: boolean;
  onClose: () => void;
}

/** Opened from the avatar: Save only when both fields are filled in and equal (spec section 4). */
export function SetPasswordModal({ user, opened, onClose }: SetPasswordModalProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const mutation = useMutation({
    mutationFn: () => changePassword({ userId: user.ID, email: user.Email, password }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('User updated successfully.') });
      close();
    },
  });

  function close() {
    setPassword('');
    setConfirmation('');
    mutation.reset();
    onClose();
  }

  const mismatch = password !== '' && confirmation !== '' && password !== confirmation;
  const canSave = password !== '' && confirmation !== '' && !mismatch;

  return (
    <Modal opened={opened} onClose={close} title={t('SetNewPassword')} centered closeButtonProps={{ 'aria-label': t('Cancel') }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (canSave) mutation.mutate();
        }}
      >
        <Stack>
          {mutation.isError ? (
            <Alert color="red" role="alert">
              {mutation.error.message}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('NewPassword')}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
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
