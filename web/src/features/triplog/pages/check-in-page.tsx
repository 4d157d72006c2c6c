/**
 * /user/check-in/:code: where a driver lands from the unit's QR sticker, on a phone. Logged out,
 * the login page brings them back here afterwards. One big button checks them in as the unit's
 * driver from now on (POST /driver-check-in with the code); then a done state.
 */
import '../triplog.css';
import { Alert, Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconCircleCheck from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import IconSteeringWheel from '@tabler/icons-react/dist/esm/icons/IconSteeringWheel.mjs';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { useSessionUser } from '../../../app/session';
import { useUnits } from '../../units/api/units';
import { driverCheckIn } from '../api/trip-api';
import { useTripFormat } from '../format';
import { imeiOfCheckInCode } from '../trip-log';

export function CheckInPage() {
  const { t } = useTranslation();
  const format = useTripFormat();
  const { code = '' } = useParams();
  const user = useSessionUser();
  const units = useUnits();
  const imei = imeiOfCheckInCode(code);
  const unit = imei ? units.data?.find((u) => u.imei === imei) : undefined;
  const me = user ? `${user.FirstName} ${user.LastName}`.trim() || user.Email : '';
  const checkIn = useMutation({ mutationFn: () => driverCheckIn({ qr: code }) });
  const doneRef = useRef<HTMLHeadingElement>(null);

  // The done state takes the focus, so that a screen reader says it at once.
  useEffect(() => {
    if (checkIn.isSuccess) doneRef.current?.focus();
  }, [checkIn.isSuccess]);

  const unitLabel = unit ? (unit.registrationNumber ? `${unit.name} (${unit.registrationNumber})` : unit.name) : null;

  if (checkIn.isSuccess) {
    const done = checkIn.data;
    return (
      <Stack className="checkin-page" gap="lg" align="stretch">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack align="center" gap="md" ta="center">
            <ThemeIcon size={72} radius="xl" color="teal" variant="light" aria-hidden>
              <IconCircleCheck size={44} stroke={1.6} />
            </ThemeIcon>
            <Title order={2} size="h2" ref={doneRef} tabIndex={-1}>
              {t('CheckInDoneTitle')}
            </Title>
            <Text>
              {t('CheckInDone', { name: done.driverName ?? me, unit: unitLabel ?? t('CheckInThisVehicle'), time: format.dateTime(done.from) })}
            </Text>
            <Button component={Link} to={`${paths.createTriplog}?${new URLSearchParams({ imei: done.imei }).toString()}`} variant="light" size="md" fullWidth>
              {t('CheckInOpenTriplog')}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  return (
    <Stack className="checkin-page" gap="lg" align="stretch">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={72} radius="xl" variant="light" aria-hidden>
            <IconSteeringWheel size={44} stroke={1.6} />
          </ThemeIcon>
          <Text c="dimmed" size="sm">
            {t('CheckInVehicle')}
          </Text>
          <Title order={2} size="h2" className="triplog-break">
            {unitLabel ?? (units.isPending ? '…' : t('CheckInThisVehicle'))}
          </Title>
          {imei === null ? (
            <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} w="100%" ta="start">
              {t('InvalidQrCode')}
            </Alert>
          ) : (
            <>
              <Text>{t('CheckInIntro')}</Text>
              {checkIn.isError ? (
                <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} w="100%" ta="start">
                  {errorMessage(checkIn.error)}
                </Alert>
              ) : null}
              <Button className="checkin-button" size="xl" fullWidth loading={checkIn.isPending} onClick={() => checkIn.mutate()}>
                {t('CheckInAs', { name: me })}
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
