/**
 * A place (/user/places/add-edit-places and .../{placeID}, spec sections 2 and 3): label, address
 * (searched, or typed), the circle on the map with its radius and coordinates, the units, the rule
 * that types their trips (start here, end here, between here and another place; business,
 * private, other) and the days and times it applies. Saving offers to apply the rule to the trips
 * already stored; an existing place can be deleted after a confirmation.
 */
import '../places.css';
import { Alert, Anchor, Button, Group, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconArrowLeft from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import IconMapPinOff from '@tabler/icons-react/dist/esm/icons/IconMapPinOff.mjs';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PLACE_ADDRESS_MAX, PLACE_LABEL_MAX, PLACE_RADIUS_MAX_M, PLACE_RADIUS_MIN_M, placeRuleWhens, type Place } from '../../../../../shared/schemas/places';
import { tripTypes } from '../../../../../shared/schemas/trips';
import { ApiError, errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { fieldErrorText } from '../../../ui/form-errors';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { AddressSearch } from '../../geofences/components/address-search';
import { CircleEditor } from '../../geofences/components/circle-editor';
import { WeeklyWindowsEditor } from '../../geofences/components/weekly-windows-editor';
import { UnitPicker } from '../../units/components/unit-picker';
import { useDeletePlace, usePlace, usePlaces, useSavePlace } from '../api/place-api';
import { ApplyOffer } from '../components/apply-offer';
import { emptyPlaceForm, formOf, scheduleErrors, serverFieldKeys, tripTypeKeys, validatePlace, type FieldKeys, type PlaceFormState } from '../place-form';

const whenKeys = { start: 'PlaceWhenStart', end: 'PlaceWhenEnd', between: 'PlaceWhenBetween' } as const;
/** The request fields (error keys) each form field feeds. */
const errorFieldsOf: Partial<Record<keyof PlaceFormState, string[]>> = {
  label: ['label'],
  address: ['address'],
  center: ['lat', 'lon'],
  radius: ['radius'],
  imeis: ['imeis'],
  when: ['rule'],
  type: ['rule.type'],
  otherPlaceId: ['rule.otherPlaceId'],
  schedule: ['schedule'],
};

export function PlaceEditPage() {
  const { placeID } = useParams();
  const place = usePlace(placeID);
  const { t } = useTranslation();
  if (placeID === undefined) return <PlaceEditor key="new" place={null} />;
  if (place.data) return <PlaceEditor key={place.data.id} place={place.data} />;
  if (place.isPending) return <PageLoader />;
  const missing = place.error instanceof ApiError && place.error.status === 404;
  return (
    <MessageState
      icon={missing ? <IconMapPinOff size={30} stroke={1.6} /> : <IconAlertTriangle size={30} stroke={1.6} />}
      title={missing ? t('PlaceNotFound') : t('SomethingWentWrong')}
      color={missing ? undefined : 'red'}
      action={
        <Button component={Link} to={paths.places} variant="default">
          {t('PlaceBackToList')}
        </Button>
      }
    >
      {missing ? t('PlaceNotFoundHelp') : errorMessage(place.error)}
    </MessageState>
  );
}

function PlaceEditor({ place }: { place: Place | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const places = usePlaces();
  const save = useSavePlace();
  const remove = useDeletePlace();
  const [form, setForm] = useState<PlaceFormState>(() => (place ? formOf(place) : emptyPlaceForm));
  const [errors, setErrors] = useState<FieldKeys>({});
  const [offer, setOffer] = useState(() => Boolean((location.state as { saved?: boolean } | null)?.saved));
  const [confirmDelete, setConfirmDelete] = useState(false);
  const set = (patch: Partial<PlaceFormState>) => {
    setForm((f) => ({ ...f, ...patch }));
    setOffer(false);
    // A field's error goes once the field is changed.
    const fields = Object.keys(patch).flatMap((k) => errorFieldsOf[k as keyof PlaceFormState] ?? []);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([field]) => !fields.some((f) => field === f || field.startsWith(`${f}.`)))));
  };

  // The offer shown after a create comes through the address's state; a reload should not show it again.
  useEffect(() => {
    if ((location.state as { saved?: boolean } | null)?.saved) void navigate(location.pathname, { replace: true, state: null });
  }, [location.pathname, location.state, navigate]);

  const otherPlaces = (places.data ?? []).filter((p) => p.id !== place?.id);

  const error = (field: string) => fieldErrorText(errors[field]);
  const schedule = scheduleErrors(errors);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { request, errors: found } = validatePlace(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate(
      { id: place?.id, body: request },
      {
        onSuccess: (id) => {
          if (place) setOffer(true);
          else void navigate(`${paths.addEditPlace}/${encodeURIComponent(id)}`, { replace: true, state: { saved: true } });
        },
        onError: (failure) => {
          if (failure instanceof ApiError) setErrors(serverFieldKeys(failure.fieldErrors));
        },
      },
    );
  };

  const saveFailed = save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length);
  const circleError = error('lat') ?? error('lon');

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Anchor component={Link} to={paths.places} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} aria-hidden />
            {t('PlaceBackToList')}
          </Group>
        </Anchor>
      </Group>
      {offer && place ? <ApplyOffer placeId={place.id} onClose={() => setOffer(false)} /> : null}
      <form onSubmit={submit} noValidate aria-label={place ? t('PlaceEditTitle') : t('PlaceNewTitle')}>
        <div className="place-editor">
          <Stack gap="md">
            <TextInput
              label={t('PlaceLabel')}
              value={form.label}
              onChange={(e) => set({ label: e.currentTarget.value })}
              maxLength={PLACE_LABEL_MAX}
              error={error('label')}
              required
              data-testid="place-label"
            />
            <AddressSearch
              label={t('PlaceAddressSearch')}
              near={form.center}
              onPick={(a) => set({ center: { lat: a.lat, lon: a.lon }, address: a.label.slice(0, PLACE_ADDRESS_MAX), label: form.label || a.label.split(',')[0]?.slice(0, PLACE_LABEL_MAX) || '' })}
            />
            <TextInput
              label={t('PlaceAddress')}
              description={t('PlaceAddressHelp')}
              value={form.address}
              onChange={(e) => set({ address: e.currentTarget.value })}
              maxLength={PLACE_ADDRESS_MAX}
              error={error('address')}
              data-testid="place-address"
            />
            <Group grow gap="sm" align="flex-start">
              <NumberInput
                label={t('PlaceLatitude')}
                value={form.center?.lat ?? ''}
                decimalScale={6}
                min={-90}
                max={90}
                hideControls
                onChange={(v) => set({ center: typeof v === 'number' ? { lat: v, lon: form.center?.lon ?? 0 } : null })}
                error={error('lat')}
                data-testid="place-lat"
              />
              <NumberInput
                label={t('PlaceLongitude')}
                value={form.center?.lon ?? ''}
                decimalScale={6}
                min={-180}
                max={180}
                hideControls
                onChange={(v) => set({ center: typeof v === 'number' ? { lat: form.center?.lat ?? 0, lon: v } : null })}
                error={error('lon')}
                data-testid="place-lon"
              />
            </Group>
            <UnitPicker
              label={t('PlaceUnits')}
              value={form.imeis}
              onChange={(imeis) => set({ imeis })}
              error={error('imeis')}
              testId="place-units"
            />
            <Stack gap="sm">
              <NativeSelect
                label={t('PlaceRuleWhen')}
                value={form.when}
                onChange={(e) => set({ when: e.currentTarget.value as PlaceFormState['when'] })}
                data={placeRuleWhens.map((w) => ({ value: w, label: t(whenKeys[w]) }))}
                error={error('rule.when')}
                data-testid="place-when"
              />
              <NativeSelect
                label={t('PlaceRuleType')}
                value={form.type}
                onChange={(e) => set({ type: e.currentTarget.value as PlaceFormState['type'] })}
                data={tripTypes.map((type) => ({ value: type, label: t(tripTypeKeys[type]) }))}
                error={error('rule.type')}
                data-testid="place-type"
              />
            </Stack>
            {form.when === 'between' ? (
              <NativeSelect
                label={t('PlaceRuleOther')}
                description={t('PlaceRuleOtherHelp')}
                value={form.otherPlaceId ?? ''}
                onChange={(e) => set({ otherPlaceId: e.currentTarget.value || null })}
                data={[{ value: '', label: t('PlaceRuleOtherChoose') }, ...otherPlaces.map((p) => ({ value: p.id, label: p.label }))]}
                error={error('rule.otherPlaceId')}
                data-testid="place-other"
              />
            ) : null}
            <WeeklyWindowsEditor
              label={t('PlaceSchedule')}
              emptyText={t('PlaceScheduleAlways')}
              value={form.schedule}
              onChange={(next) => set({ schedule: next })}
              errors={form.schedule.map((_, i) => {
                const keys = schedule.byWindow[i];
                return keys ? { days: fieldErrorText(keys.days), from: fieldErrorText(keys.from), to: fieldErrorText(keys.to) } : undefined;
              })}
              error={fieldErrorText(schedule.list)}
            />
          </Stack>
          <Stack gap="xs">
            <CircleEditor
              center={form.center}
              radius={form.radius}
              onChange={(v) => set({ center: v.center, radius: v.radius })}
              minRadius={PLACE_RADIUS_MIN_M}
              maxRadius={PLACE_RADIUS_MAX_M}
              label={t('PlaceMapLabel')}
              radiusError={error('radius')}
              centerError={circleError ? t('PlaceSetCentre') : undefined}
            />
          </Stack>
        </div>
        <Stack gap="sm" mt="lg">
          {saveFailed ? (
            <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />}>
              {errorMessage(save.error)}
            </Alert>
          ) : null}
          {Object.keys(errors).length && !saveFailed ? (
            <Text size="sm" c="red.8" role="alert">
              {t('PlaceFixErrors')}
            </Text>
          ) : null}
          <Group justify="space-between" wrap="wrap-reverse" gap="sm">
            <Group gap="sm">
              <Button type="submit" loading={save.isPending} data-testid="place-save">
                {t('PlaceSave')}
              </Button>
              <Button component={Link} to={paths.places} variant="default">
                {t('PlaceCancel')}
              </Button>
            </Group>
            {place ? (
              <Button color="red" variant="light" onClick={() => setConfirmDelete(true)} data-testid="place-delete">
                {t('PlaceDelete')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
      {place ? (
        <ConfirmDeleteModal
          opened={confirmDelete}
          title={t('PlaceDeleteTitle')}
          message={t('PlaceDeleteConfirm', { label: place.label })}
          confirmLabel={t('PlaceDelete')}
          cancelLabel={t('PlaceCancel')}
          closeLabel={t('PlaceCancel')}
          pending={remove.isPending}
          error={remove.isError ? errorMessage(remove.error) : null}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => remove.mutate(place.id, { onSuccess: () => void navigate(paths.places) })}
          confirmTestId="place-delete-confirm"
        />
      ) : null}
    </Stack>
  );
}
