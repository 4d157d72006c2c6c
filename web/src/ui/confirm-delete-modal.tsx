/**
 * The one question before something is deleted: a modal with what is about to go, the server's
 * refusal when there is one, Cancel (focused first, so Enter never deletes by accident) and a red
 * confirm button. Every page that deletes asks with it; the texts are the page's own.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmDeleteModalProps {
  opened: boolean;
  title: string;
  /** What is about to be deleted, in the page's words. */
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** The accessible name of the modal's close button. */
  closeLabel: string;
  pending: boolean;
  /** Why the last try failed (already translated), or null. */
  error: ReactNode | null;
  onCancel: () => void;
  onConfirm: () => void;
  /** A test id for the confirm button. */
  confirmTestId?: string;
}

export function ConfirmDeleteModal(props: ConfirmDeleteModalProps) {
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={props.title} centered closeButtonProps={{ 'aria-label': props.closeLabel }}>
      <Stack gap="md">
        <Text>{props.message}</Text>
        {props.error ? (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={props.onCancel} data-autofocus>
            {props.cancelLabel}
          </Button>
          <Button color="red.8" loading={props.pending} data-testid={props.confirmTestId} onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
