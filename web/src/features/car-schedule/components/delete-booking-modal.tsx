/** The delete confirmation (spec section 2): the booking's purpose, from, to and registration number. */
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Booking } from '../../../../../shared/schemas/car-schedule';
import { useDeleteBooking } from '../api/car-schedule-api';

interface Props {
  booking: Booking | null;
  onClose: () => void;
  onDeleted: (messageKey: string) => void;
  onFailed: (error: unknown) => void;
}

export function DeleteBookingModal({ booking, onClose, onDeleted, onFailed }: Props) {
  const { t } = useTranslation();
  const remove = useDeleteBooking();
  const rows: [string, string][] = booking
    ? [
        [t('CsFieldPurpose'), booking.purpose],
        [t('CsFieldStart'), `${booking.date} ${booking.start_time}`],
        [t('CsFieldEnd'), `${booking.date} ${booking.end_time}`],
        [t('CsColumnRegistration'), booking.registration_number],
      ]
    : [];
  return (
    <Modal opened={booking !== null} onClose={onClose} title={t('CsDeleteTitle')} closeButtonProps={{ 'aria-label': t('CsCancel') }}>
      <Stack gap="md">
        <Text>{t('CsDeleteConfirm')}</Text>
        <Table>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row">{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('CsCancel')}
          </Button>
          <Button
            color="red.8"
            loading={remove.isPending}
            onClick={() => booking && remove.mutate(booking.id, { onSuccess: () => onDeleted('DeleteMsg'), onError: onFailed })}
          >
            {t('CsDelete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
