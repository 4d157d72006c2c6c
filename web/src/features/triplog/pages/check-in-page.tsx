/**
 * /user/check-in/:code: where a driver lands from the unit's QR sticker, on a phone. Logged out,
 * the login page brings them back here afterwards. The page names the code's unit (GET
 * /check-in/{code}, which answers whoever may check in by the code, also a user the account lets
 * check in without access to the unit); one big button checks them in as its driver from now on
 * (POST /driver-check-in with the code); then a done state. A code that is none, or a unit the
 * user may not check in on, is said instead of the button. Without a network the check-in is kept
 * on the phone with the time of the scan and sent when it is online again (My trips' outbox,
 * web/src/features/my-trips/sync.ts), exactly once.
 */
import '../triplog.css';
import { Alert, Button, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconCircleCheck from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import IconSteeringWheel from '@tabler/icons-react/dist/esm/icons/IconSteeringWheel.mjs';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { CheckInUnit } from '../../../../../shared/schemas/trips';
import { ApiError, errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { useSessionUser } from '../../../app/session';
import { driverCheckIn, useCheckInUnit } from '../api/trip-api';
import { useTripFormat } from '../format';
import { imeiOfCheckInCode } from '../trip-log';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';
import { submitChange } from '../../my-trips/sync';
import { useOnline } from '../../my-trips/use-online';

const unitLabelOf = (unit: CheckInUnit) => (unit.registrationNumber ? `${unit.name} (${unit.registrationNumber})` : unit.name);

export function CheckInPage() {
  const { t } = useTranslation();
  const format = useTripFormat();
  const { code = '' } = useParams();
  const user = useSessionUser();
  // A code that is not even shaped like one is not asked about.
  const wellFormed = imeiOfCheckInCode(code) !== null;
  const unit = useCheckInUnit(wellFormed ? code : null);
  const me = user ? `${user.FirstName} ${user.LastName}`.trim() || user.Email : '';
  const checkIn = useMutation({ mutationFn: () => driverCheckIn({ qr: code }) });
  const online = useOnline();
  // Offline: kept in the outbox with the time of now; sent (once) when the phone is online again.
  const queue = useMutation({ mutationFn: () => submitChange(user?.ID ?? '', { kind: 'checkIn', request: { qr: code, from: new Date().toISOString() } }) });
  const doneRef = useRef<HTMLHeadingElement>(null);

  // The done state takes the focus, so that a screen reader says it at once.
  useEffect(() => {
    if (checkIn.isSuccess || queue.isSuccess) doneRef.current?.focus();
  }, [checkIn.isSuccess, queue.isSuccess]);

  const unitLabel = unit.data ? unitLabelOf(unit.data) : null;

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
            <Text>{t('CheckInDone', { name: done.driverName ?? me, unit: unitLabel ?? done.imei, time: format.dateTime(done.from) })}</Text>
            <Button component={Link} to={`${paths.createTriplog}?${new URLSearchParams({ imei: done.imei }).toString()}`} variant="light" size="md" fullWidth>
              {t('CheckInOpenTriplog')}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  if (queue.isSuccess) {
    const sent = !queue.data.stopped && queue.data.refused === 0;
    return (
      <Stack className="checkin-page" gap="lg" align="stretch">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack align="center" gap="md" ta="center">
            <ThemeIcon size={72} radius="xl" color={sent ? 'teal' : 'yellow'} variant="light" aria-hidden>
              <IconCircleCheck size={44} stroke={1.6} />
            </ThemeIcon>
            <Title order={2} size="h2" ref={doneRef} tabIndex={-1}>
              {sent ? t('CheckInDoneTitle') : t('MyTripsPending')}
            </Title>
            <Text>{sent ? t('MyTripsSaved') : t('MyTripsCheckInQueued')}</Text>
            <Button component={Link} to={paths.myTrips} variant="light" size="md" fullWidth>
              {t('MyTrips')}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  // 404 InvalidQrCode and 403 QrCheckInNotAllowed are answers; anything else may pass on a retry.
  const refused = unit.error instanceof ApiError && unit.error.status >= 400 && unit.error.status < 500;
  // No network (the browser says so, or a request found none): the check-in can still be kept.
  const noNetwork = !online || (unit.error instanceof ApiError && unit.error.status === 0) || (checkIn.error instanceof ApiError && checkIn.error.status === 0);

  return (
    <Stack className="checkin-page" gap="lg" align="stretch">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={72} radius="xl" variant="light" aria-hidden>
            <IconSteeringWheel size={44} stroke={1.6} />
          </ThemeIcon>
          {!wellFormed ? (
            <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} w="100%" ta="start">
              {t('InvalidQrCode')}
            </Alert>
          ) : noNetwork && !unit.data ? (
            <>
              <Text>{t('MyTripsCheckInOffline')}</Text>
              <Button className="checkin-button" size="xl" fullWidth loading={queue.isPending} onClick={() => queue.mutate()}>
                {t('MyTripsCheckInOfflineButton')}
              </Button>
            </>
          ) : unit.isPending ? (
            <Group gap="xs" role="status">
              <Loader size="sm" aria-hidden />
              <Text c="dimmed" size="sm">
                {t('CheckInLoadingVehicle')}
              </Text>
            </Group>
          ) : unit.isError ? (
            <LockedOrFailed error={unit.error}>
<Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} w="100%" ta="start">
              <Stack gap="sm" align="flex-start">
                <span>{refused ? errorMessage(unit.error) : t('CheckInVehicleLoadFailed')}</span>
                {refused ? null : (
                  <Button variant="default" size="xs" onClick={() => void unit.refetch()} loading={unit.isFetching}>
                    {t('TryAgain')}
                  </Button>
                )}
              </Stack>
            </Alert>
</LockedOrFailed>
          ) : (
            <>
              <Text c="dimmed" size="sm">
                {t('CheckInVehicle')}
              </Text>
              <Title order={2} size="h2" className="triplog-break">
                {unitLabel}
              </Title>
              <Text>{t('CheckInIntro')}</Text>
              {checkIn.isError && !noNetwork ? (
                <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />} w="100%" ta="start">
                  {errorMessage(checkIn.error)}
                </Alert>
              ) : null}
              <Button
                className="checkin-button"
                size="xl"
                fullWidth
                loading={checkIn.isPending || queue.isPending}
                onClick={() => (noNetwork ? queue.mutate() : checkIn.mutate())}
              >
                {t('CheckInAs', { name: me })}
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
