/**
 * The driver's edit of one trip on the phone: type, purpose, note and passengers (the fields a
 * driver keeps; date, times and distance are never editable), checked with the shared schema
 * before it is kept. Saving puts the change in the outbox (and sends it at once when online);
 * nothing is lost when the network is not there.
 */
import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TRIP_NOTE_MAX, TRIP_PASSENGERS_MAX, TRIP_PURPOSE_MAX, tripTypes, tripUpdateSchema, type Trip, type TripType, type TripUpdate } from '../../../../../shared/schemas/trips';
import { setBusy } from '../../../pwa/busy';
import { tripTypeLabelKeys } from '../../triplog/components/trip-type';
import { useTripFormat } from '../../triplog/format';
import { changedFields } from '../outbox';

export interface EditValues {
  type: TripType;
  purpose: string;
  note: string;
  passengers: string;
}

export function valuesOf(trip: Trip, typed?: TripUpdate): EditValues {
  const text = (field: 'purpose' | 'note' | 'passengers') => (typed && typed[field] !== undefined ? (typed[field] ?? '') : (trip[field] ?? ''));
  return { type: typed?.type ?? trip.type, purpose: text('purpose'), note: text('note'), passengers: text('passengers') };
}

export interface EditTripModalProps {
  /** The trip as the driver sees it (waiting changes laid over it). */
  trip: Trip;
  /** Typed values to start from (a refused change being edited again). */
  typed?: TripUpdate;
  onSave: (fields: TripUpdate) => Promise<void>;
  onClose: () => void;
}

export function EditTripModal({ trip, typed, onSave, onClose }: EditTripModalProps) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const [values, setValues] = useState<EditValues>(() => valuesOf(trip, typed));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  // An open form holds the update prompt back.
  useEffect(() => {
    setBusy('my-trips-form', true);
    return () => setBusy('my-trips-form', false);
  }, []);

  const set = (field: keyof EditValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const submit = async () => {
    // A refused change sent again carries its typed values even where they equal the stored trip.
    const fields = typed ? { ...changedFields(trip, values), ...pick(values, typed) } : changedFields(trip, values);
    const checked = tripUpdateSchema.safeParse(fields);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), t(issue.message)])));
      return;
    }
    if (Object.keys(fields).length === 0) return onClose();
    setSaving(true);
    try {
      await onSave(fields);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('MyTripsEditTrip', { time: format.dateTime(trip.startTime) })} fullScreen={false} size="md">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <Radio.Group label={t('MyTripsType')} value={values.type} onChange={set('type')}>
            <Group gap="md" mt={6}>
              {tripTypes.map((type) => (
                <Radio key={type} value={type} label={t(tripTypeLabelKeys[type])} />
              ))}
            </Group>
          </Radio.Group>
          <TextInput label={t('MyTripsPurpose')} value={values.purpose} maxLength={TRIP_PURPOSE_MAX} onChange={(e) => set('purpose')(e.currentTarget.value)} error={errors['purpose']} />
          <TextInput label={t('MyTripsNote')} value={values.note} maxLength={TRIP_NOTE_MAX} onChange={(e) => set('note')(e.currentTarget.value)} error={errors['note']} />
          <TextInput
            label={t('MyTripsPassengers')}
            value={values.passengers}
            maxLength={TRIP_PASSENGERS_MAX}
            onChange={(e) => set('passengers')(e.currentTarget.value)}
            error={errors['passengers']}
          />
          {errors['type'] ? (
            <Text c="red" size="sm" role="alert">
              {errors['type']}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('MyTripsCancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('MyTripsSave')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The values of the fields a refused change carried, as typed now. */
function pick(values: EditValues, typed: TripUpdate): TripUpdate {
  const out: TripUpdate = {};
  if (typed.type !== undefined) out.type = values.type;
  for (const field of ['purpose', 'note', 'passengers'] as const) {
    if (typed[field] !== undefined) out[field] = values[field].trim() === '' ? null : values[field].trim();
  }
  return out;
}
