/**
 * The unit's QR check-in code, to print and stick in the vehicle: a driver scans it with the
 * phone's camera and lands on /user/check-in/{code} (check-in-page.tsx).
 */
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import IconPrinter from '@tabler/icons-react/dist/esm/icons/IconPrinter.mjs';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';
import { useCheckInCode } from '../api/trip-api';
import { QrCode } from './qr-code';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

export function QrCodeModal({ imei, unitName, opened, onClose }: { imei: string; unitName: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const code = useCheckInCode(opened ? imei : null);
  return (
    <Modal opened={opened} onClose={onClose} title={t('TripQrTitle')} centered closeButtonProps={{ 'aria-label': t('TripClose') }}>
      {code.isPending ? (
        <Center py="xl">
          <Loader role="progressbar" aria-label={t('Loading')} />
        </Center>
      ) : code.isError ? (
        <LockedOrFailed error={code.error}>
<Alert color="red" role="alert">
          {errorMessage(code.error)}
        </Alert>
</LockedOrFailed>
      ) : (
        <Stack gap="md" align="center">
          <div className="triplog-print" data-testid="qr-sheet">
            <Stack gap="xs" align="center">
              <Title order={3} size="h3" ta="center">
                {unitName}
              </Title>
              <QrCode value={code.data.url} label={t('TripQrImage', { unit: unitName })} />
              <Text size="sm" ta="center" fw={600}>
                {t('TripQrScanToCheckIn')}
              </Text>
              <Text size="xs" c="dimmed" ta="center" className="triplog-break">
                {code.data.url}
              </Text>
            </Stack>
          </div>
          <Text size="sm" c="dimmed" ta="center">
            {t('TripQrHint')}
          </Text>
          <Group justify="center">
            <Button variant="default" onClick={onClose}>
              {t('TripClose')}
            </Button>
            <Button leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
              {t('TripQrPrint')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
