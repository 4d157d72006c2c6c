/**
 * Driver check-in (spec sections 4 and 5): a driver from a date and time (now by default) drives the
 * unit until the next check-in, and the unit's trips from then on name them. 'No driver' is not a
 * driver: the list has no such choice and the shared schema refuses an empty one. The list is who
 * can drive the unit (GET /units/{imei}/drivers: the account's users, by name).
 */
import { Alert, Button, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { driverCheckInRequestSchema, type DriverCheckIn } from '../../../../../shared/schemas/trips';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { driverCheckIn, useDrivers } from '../api/trip-api';
import { driverChoices, toDateTimeInput } from '../trip-log';
import { DateTimeField } from '../../../ui/date-fields';

interface CheckInModalProps {
  imei: string;
  unitName: string;
  opened: boolean;
  onClose: () => void;
  onDone: (checkIn: DriverCheckIn) => void;
}

export function CheckInModal({ opened, onClose, ...rest }: CheckInModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('TripCheckInTitle')} centered closeButtonProps={{ 'aria-label': t('TripClose') }}>
      {/* Mounted while open: every opening starts from now. */}
      {opened ? <CheckInForm onClose={onClose} {...rest} /> : null}
    </Modal>
  );
}

function CheckInForm({ imei, unitName, onClose, onDone }: Omit<CheckInModalProps, 'opened'>) {
  const { t } = useTranslation();
  const [driverId, setDriverId] = useState<string | null>(null);
  const [from, setFrom] = useState(() => toDateTimeInput(new Date()));
  const [errors, setErrors] = useState<{ driverId?: string; from?: string }>({});
  const driverList = useDrivers(imei);
  const drivers = useMemo(() => driverChoices(driverList.data ?? []), [driverList.data]);
  const mutation = useMutation({
    mutationFn: driverCheckIn,
    onSuccess: (checkIn) => {
      onDone(checkIn);
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        setErrors({ driverId: error.fieldErrors['driverId']?.[0], from: error.fieldErrors['from']?.[0] });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = driverCheckInRequestSchema.safeParse({ imei, driverId, from });
    if (!parsed.success) {
      const next: { driverId?: string; from?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'driverId' || field === 'from') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data);
  };
  const fieldError = Boolean(errors.driverId || errors.from);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{t('TripCheckInIntro', { unit: unitName })}</Text>
        {mutation.isError && !fieldError ? (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        ) : null}
        {driverList.isError ? (
          <Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />}>
            <Stack gap="xs" align="flex-start">
              <span>{t('TripDriversLoadFailed')}</span>
              <Button variant="default" size="xs" onClick={() => void driverList.refetch()} loading={driverList.isFetching}>
                {t('TryAgain')}
              </Button>
            </Stack>
          </Alert>
        ) : null}
        <Select
          label={t('TripDriver')}
          placeholder={driverList.isPending ? t('TripDriversLoading') : t('TripChooseDriver')}
          rightSection={driverList.isPending ? <Loader size="xs" aria-hidden /> : undefined}
          data={[...drivers]}
          value={driverId}
          onChange={(value) => {
            setDriverId(value);
            setErrors((e) => ({ ...e, driverId: undefined }));
          }}
          required
          searchable={drivers.length > 8}
          error={fieldErrorText(errors.driverId)}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <DateTimeField
          label={t('TripCheckInFrom')}
          description={t('TripCheckInFromHint')}
          value={from}
          max={toDateTimeInput(new Date())}
          onChange={(next) => {
            setFrom(next);
            setErrors((e) => ({ ...e, from: undefined }));
          }}
          required
          error={fieldErrorText(errors.from)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            {t('TripCheckIn')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
