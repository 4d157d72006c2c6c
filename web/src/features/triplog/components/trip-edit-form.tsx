/**
 * A trip's inline edit form: type, purpose, note, driver (who can drive the unit, GET
 * /units/{imei}/drivers), passengers and project. Date, times and
 * distance are shown, never editable. Checked with the shared schema (tripUpdateSchema) before it is
 * sent; the server's 422 keys appear beside their fields, and a 423 (the period was attested
 * meanwhile) is said and the trip becomes read-only. Escape closes an unchanged form; with changes
 * typed it asks first (Escape again, or Keep editing, goes back to the form).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Autocomplete, Button, Group, Loader, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TRIP_NOTE_MAX, tripTypes, tripUpdateSchema, type Trip } from '../../../../../shared/schemas/trips';
import { tripMessageKeys } from '../../../../../shared/schemas/trips-messages';
import { ApiError, errorMessage } from '../../../app/api-client';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { updateTrip, useDrivers } from '../api/trip-api';
import { useTripFormat } from '../format';
import { changedFields, driverChoices, formValuesOf, type TripFormValues } from '../trip-log';
import { tripTypeLabelKeys } from './trip-type';

/** Every field present: the form always holds all of them (the PUT sends only what changed). */
const formSchema = tripUpdateSchema.required();
const fields = ['type', 'purpose', 'note', 'driverId', 'passengers', 'project'] as const;

export interface TripEditFormProps {
  trip: Trip;
  purposes: readonly string[];
  projects: readonly string[];
  onSaved: (trip: Trip) => void;
  onCancel: () => void;
  /** The server said the trip is attested (423): the list shows it locked from now on. */
  onLocked: (trip: Trip) => void;
  /**
   * What is typed into open forms, by trip: the form moves between the table and the cards when
   * the window crosses the phone width (a tablet turned), and takes it along.
   */
  drafts: Map<string, TripFormValues>;
}

export function TripEditForm({ trip, purposes, projects, onSaved, onCancel: cancelled, onLocked, drafts }: TripEditFormProps) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const headingId = useId();
  const typeRef = useRef<HTMLInputElement>(null);
  const drivers = useDrivers(trip.imei);
  const form = useForm<TripFormValues, unknown, TripFormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: drafts.get(trip.id) ?? formValuesOf(trip),
    mode: 'onTouched',
  });
  useEffect(() => {
    const subscription = form.watch((values) => drafts.set(trip.id, { ...formValuesOf(trip), ...values }));
    return () => subscription.unsubscribe();
  }, [form, drafts, trip]);
  const onCancel = () => {
    drafts.delete(trip.id);
    cancelled();
  };
  // Escape with changes typed: asked whether to discard them, never silently.
  const [askDiscard, setAskDiscard] = useState(false);
  const keepEditingRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (askDiscard) keepEditingRef.current?.focus();
  }, [askDiscard]);
  const onEscape = () => {
    if (askDiscard) {
      setAskDiscard(false);
      typeRef.current?.focus();
    } else if (Object.keys(changedFields(trip, form.getValues())).length > 0) setAskDiscard(true);
    else onCancel();
  };
  const mutation = useMutation({
    mutationFn: (values: TripFormValues) => updateTrip(trip.id, changedFields(trip, values)),
    onSuccess: (saved) => {
      drafts.delete(trip.id);
      onSaved(saved);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 423) onLocked(trip);
      else applyServerFieldErrors(error, fields, form.setError);
    },
  });
  const { errors } = form.formState;

  // Focus goes to the first field as the form opens (it replaces the row the Edit button was in).
  useEffect(() => {
    typeRef.current?.focus();
  }, []);

  const submit = form.handleSubmit((values) => {
    if (Object.keys(changedFields(trip, values)).length === 0) {
      onCancel();
      return;
    }
    mutation.mutate(values);
  });

  const locked = mutation.error instanceof ApiError && mutation.error.status === 423;
  const generalError = mutation.isError && !locked && !fields.some((f) => errors[f]?.type === 'server');
  const note = form.watch('note');
  const driverData = [{ value: '', label: t('TripNoDriver') }, ...driverChoices(drivers.data ?? [], trip)];

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onEscape();
        }
      }}
    >
      <Stack gap="sm">
        <Text id={headingId} fw={600} size="sm">
          {t('TripEditHeading', {
            time: `${format.time(trip.startTime)}–${format.time(trip.stopTime)}`,
            distance: format.km(trip.distance),
          })}
        </Text>
        {locked ? (
          <Alert color="orange" role="alert" icon={<IconLock size={18} aria-hidden />}>
            {t(tripMessageKeys.TripIsAttested)}
          </Alert>
        ) : null}
        {generalError ? (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        ) : null}
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Radio.Group label={t('TripType')} value={field.value} onChange={(value) => field.onChange(value)} error={fieldErrorText(errors.type?.message)}>
              <Group gap="lg" mt={6}>
                {tripTypes.map((type, index) => (
                  <Radio key={type} value={type} label={t(tripTypeLabelKeys[type])} ref={index === 0 ? typeRef : undefined} disabled={locked} />
                ))}
              </Group>
            </Radio.Group>
          )}
        />
        <div className="triplog-form-grid">
          <Controller
            control={form.control}
            name="purpose"
            render={({ field }) => (
              <Autocomplete
                label={t('TripPurpose')}
                description={t('TripPurposeHint')}
                data={[...purposes]}
                value={field.value ?? ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldErrorText(errors.purpose?.message)}
                disabled={locked}
                maxDropdownHeight={220}
                comboboxProps={{ withinPortal: true }}
                autoComplete="off"
                name="purpose"
              />
            )}
          />
          <TextInput
            label={t('TripNote')}
            description={t('TripCharactersLeft', { count: Math.max(0, TRIP_NOTE_MAX - (note ?? '').trim().length) })}
            {...form.register('note')}
            error={fieldErrorText(errors.note?.message)}
            disabled={locked}
            autoComplete="off"
          />
          <Controller
            control={form.control}
            name="driverId"
            render={({ field }) => (
              <Select
                label={t('TripDriver')}
                data={driverData}
                value={field.value ?? ''}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                // The trip's own driver stays chosen while the others load, or when they cannot.
                description={drivers.isPending ? t('TripDriversLoading') : drivers.isError ? t('TripDriversLoadFailed') : undefined}
                rightSection={drivers.isPending ? <Loader size="xs" aria-hidden /> : undefined}
                error={fieldErrorText(errors.driverId?.message)}
                disabled={locked}
                allowDeselect={false}
                searchable={driverData.length > 8}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <TextInput
            label={t('TripPassengers')}
            {...form.register('passengers')}
            error={fieldErrorText(errors.passengers?.message)}
            disabled={locked}
            autoComplete="off"
          />
          <Controller
            control={form.control}
            name="project"
            render={({ field }) => (
              <Autocomplete
                label={t('TripProject')}
                data={[...projects]}
                value={field.value ?? ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldErrorText(errors.project?.message)}
                disabled={locked}
                comboboxProps={{ withinPortal: true }}
                autoComplete="off"
                name="project"
              />
            )}
          />
        </div>
        {askDiscard ? (
          // The question is the Alert's title, which Mantine names the alertdialog by (it drops an aria-labelledby of
          // our own), in the text colour: orange on its light orange is too faint to read.
          <Alert color="orange" role="alertdialog" title={t('TripDiscardChanges')} styles={{ title: { color: 'var(--mantine-color-text)' } }}>
            <Group gap="sm">
              <Button
                ref={keepEditingRef}
                size="xs"
                onClick={() => {
                  setAskDiscard(false);
                  typeRef.current?.focus();
                }}
              >
                {t('TripKeepEditing')}
              </Button>
              <Button size="xs" variant="default" onClick={onCancel}>
                {t('TripDiscard')}
              </Button>
            </Group>
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {locked ? t('TripClose') : t('Cancel')}
          </Button>
          {locked ? null : (
            <Button type="submit" loading={mutation.isPending}>
              {t('Save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
