/**
 * The new and edit booking modal (spec sections 2, 5 and 6): vehicle, driver (an admin chooses, an
 * ordinary user is the driver), date, from and to in 15-minute steps, purpose; Delete on an
 * editable booking. The form checks the shared rules first and shows the server's 422 keys on the
 * same fields after; a booking the caller may not change opens read-only.
 */
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BOOKING_PURPOSE_MAX, type Booking, type BookingFieldErrors, type VehicleSchedule } from '../../../../../shared/schemas/car-schedule';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { useBookingDrivers, useSaveBooking } from '../api/car-schedule-api';
import { bookingBody, bookingFormErrors, timeOptions, wallNow, type BookingFormValues } from '../booking-form';
import { DateField } from '../../../ui/date-fields';

export interface BookingDraft {
  /** The booking being edited, or null for a new one. */
  booking: Booking | null;
  values: BookingFormValues;
  /** My booking with more than one vehicle: the vehicle is chosen in the form (SelectImei). */
  chooseVehicle: boolean;
}

interface Props {
  draft: BookingDraft | null;
  vehicles: readonly VehicleSchedule[];
  isAdmin: boolean;
  self: { id: string; name: string };
  onClose: () => void;
  onSaved: (messageKey: string) => void;
  onDelete: (b: Booking) => void;
}

export function BookingModal(props: Props) {
  const { t } = useTranslation();
  const { draft, onClose } = props;
  const title = !draft?.booking ? t('CsNewBookingTitle') : draft.booking.editable ? t('CsEditBookingTitle') : t('CsViewBookingTitle');
  return (
    <Modal opened={draft !== null} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('CsClose') }}>
      {draft ? <BookingForm key={draft.booking?.id ?? `new-${draft.values.imei}-${draft.values.date}`} {...props} draft={draft} /> : null}
    </Modal>
  );
}

type Field = keyof BookingFieldErrors;
const FIELDS: readonly Field[] = ['imei', 'driver_id', 'start_date', 'end_date', 'purpose'];

function BookingForm({ draft, vehicles, isAdmin, self, onClose, onSaved, onDelete }: Props & { draft: BookingDraft }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<BookingFormValues>(draft.values);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const save = useSaveBooking();
  const drivers = useBookingDrivers(isAdmin && values.imei ? values.imei : null);
  const readOnly = draft.booking !== null && !draft.booking.editable;
  const set = (patch: Partial<BookingFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const nowTime = wallNow().slice(11);
  const times = timeOptions([values.start, values.end, nowTime]).map((x) => ({ value: x, label: x }));
  const vehicle = vehicles.find((v) => v.Imei === values.imei);

  const submit = () => {
    setGeneral(null);
    const found = bookingFormErrors(values, wallNow());
    const first = Object.fromEntries(Object.entries(found).map(([k, list]) => [k, list?.[0]])) as Partial<Record<Field, string>>;
    setErrors(first);
    if (Object.keys(first).length) return;
    save.mutate(
      { id: draft.booking?.id ?? null, body: bookingBody(values) },
      {
        onSuccess: () => onSaved(draft.booking ? 'UpdateSuccessMsg' : 'NewBookingSuccessMsg'),
        onError: (error) => {
          const fields: Partial<Record<Field, string>> = {};
          if (error instanceof ApiError && error.status === 422) for (const f of FIELDS) if (error.fieldErrors[f]?.[0]) fields[f] = error.fieldErrors[f][0];
          setErrors(fields);
          // A field's key is shown at the field; the answer's own message (ErrSavePastDateMsg, ...) above them.
          const repeated = error instanceof ApiError && (error.key === 'ValidationFailed' || Object.values(fields).includes(error.key));
          setGeneral(Object.keys(fields).length && repeated ? null : errorMessage(error));
        },
      },
    );
  };

  // ErrPastDateMsg is about the date; the other start keys about the time.
  const dateError = errors.start_date === 'ErrPastDateMsg' ? errors.start_date : undefined;
  const startError = dateError ? undefined : errors.start_date;

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!readOnly) submit();
      }}
    >
      <Stack gap="sm">
        {readOnly ? (
          <Alert color="gray" variant="light">
            {t('CsReadOnly')}
          </Alert>
        ) : null}
        {general ? (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        ) : null}
        {draft.chooseVehicle || (draft.booking && isAdmin && !readOnly) ? (
          <Select
            label={t('CsFieldVehicle')}
            required
            data={vehicles.map((v) => ({ value: v.Imei, label: `${v.Name} (${v.RegistrationNumber})` }))}
            value={values.imei || null}
            onChange={(imei) => set({ imei: imei ?? '', ...(isAdmin ? {} : { driverId: self.id }) })}
            error={fieldErrorText(errors.imei)}
            searchable
            readOnly={readOnly}
            allowDeselect={false}
          />
        ) : (
          <TextInput label={t('CsFieldVehicle')} value={vehicle ? `${vehicle.Name} (${vehicle.RegistrationNumber})` : (draft.booking?.registration_number ?? '')} readOnly variant="filled" error={fieldErrorText(errors.imei)} />
        )}
        {isAdmin && !readOnly ? (
          <Select
            label={t('CsFieldDriver')}
            required
            data={(drivers.data?.members ?? []).map((m) => ({ value: m.ID, label: `${m.FirstName} ${m.LastName}`.trim() }))}
            value={values.driverId || null}
            onChange={(id) => set({ driverId: id ?? '' })}
            error={fieldErrorText(errors.driver_id)}
            allowDeselect={false}
          />
        ) : (
          <TextInput label={t('CsFieldDriver')} value={draft.booking ? draft.booking.driver_name : self.name} readOnly variant="filled" error={fieldErrorText(errors.driver_id)} />
        )}
        <DateField
          label={t('CsFieldDate')}
          required
          value={values.date}
          onChange={(date) => set({ date })}
          error={fieldErrorText(dateError)}
          readOnly={readOnly}
        />
        <Group grow align="flex-start">
          <Select label={t('CsFieldStart')} required data={times} value={values.start} onChange={(v) => v && set({ start: v })} error={fieldErrorText(startError)} readOnly={readOnly} allowDeselect={false} />
          <Select label={t('CsFieldEnd')} required data={times} value={values.end} onChange={(v) => v && set({ end: v })} error={fieldErrorText(errors.end_date)} readOnly={readOnly} allowDeselect={false} />
        </Group>
        <TextInput
          label={t('CsFieldPurpose')}
          required
          value={values.purpose}
          maxLength={BOOKING_PURPOSE_MAX + 10}
          onChange={(e) => set({ purpose: e.currentTarget.value })}
          error={fieldErrorText(errors.purpose)}
          description={readOnly ? undefined : t('CsPurposeLeft', { count: Math.max(0, BOOKING_PURPOSE_MAX - values.purpose.trim().length) })}
          readOnly={readOnly}
          data-autofocus
        />
        {readOnly ? (
          <Text size="sm" c="dimmed">
            {draft.booking?.driver_name}
          </Text>
        ) : null}
        <Group justify="space-between" mt="xs">
          {draft.booking && draft.booking.editable ? (
            <Button variant="light" color="red.8" onClick={() => draft.booking && onDelete(draft.booking)}>
              {t('CsDelete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {readOnly ? t('CsClose') : t('CsCancel')}
            </Button>
            {readOnly ? null : (
              <Button type="submit" loading={save.isPending}>
                {t('CsSave')}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
