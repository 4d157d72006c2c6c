import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';

/**
 * A failed registration call (spec section 8): the server's message in an information dialog; its
 * field errors are shown beside the fields by the form. The text is translated at render time, so
 * it follows a language switch.
 */
export function RegistrationErrorDialog({ error, onClose }: { error: unknown; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={error !== null} onClose={onClose} title={t('RegistrationFailedTitle')} centered closeButtonProps={{ 'aria-label': t('CloseDialog') }}>
      <Text c="red.8" role="alert">
        {error !== null ? errorMessage(error) : null}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose} data-autofocus>
          {t('CloseDialog')}
        </Button>
      </Group>
    </Modal>
  );
}
