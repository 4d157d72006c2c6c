/**
 * Add or edit a geofence (/user/geofences/add-edit-geofences[/{id}]): the map where the centre is
 * clicked or dragged and the radius dragged or typed (CircleEditor), an address search that centres
 * the map, the name, the units (a searchable multi-select; a unit with 5 other geofences cannot be
 * chosen), the alarm, active and theft-mode switches and the deactivation windows. Checked with the
 * shared schemas before it is sent; the server's 422 keys appear at their fields. Delete asks first.
 */
import '../geofences.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconArrowLeft from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import IconMapPinOff from '@tabler/icons-react/dist/esm/icons/IconMapPinOff.mjs';
import { useCallback, useMemo, useState } from 'react';
import { Controller, useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { GEOFENCE_NAME_MAX, GEOFENCE_RADIUS_MAX_M, GEOFENCE_RADIUS_MIN_M, MAX_GEOFENCES_PER_UNIT, type Geofence } from '../../../../../shared/schemas/geofences';
import { ApiError, errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { fieldErrorText } from '../../../ui/form-errors';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { UnitPicker } from '../../units/components/unit-picker';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { useGeofence, useGeofences, useSaveGeofence } from '../api/geofence-api';
import { AddressSearch } from '../components/address-search';
import { CircleEditor } from '../components/circle-editor';
import { WeeklyWindowsEditor } from '../components/weekly-windows-editor';
import { formFieldOf, formValuesOf, geofenceFormSchema, requestOf, type GeofenceFormValues } from '../geofence-form';
import { geofenceCounts } from '../geofence-list';
import { DeleteGeofenceModal } from './geofences-page';

export function GeofenceEditPage() {
  const { t } = useTranslation();
  const { geofenceID } = useParams();
  const existing = useGeofence(geofenceID);
  if (geofenceID === undefined) return <GeofenceForm key="new" />;
  if (existing.data) return <GeofenceForm key={existing.data.id} geofence={existing.data} />;
  if (existing.isError) {
    if (existing.error instanceof ApiError && existing.error.status === 404) {
      return (
        <MessageState
          icon={<IconMapPinOff size={30} stroke={1.6} />}
          title={t('GeofenceNotFoundTitle')}
          action={
            <Anchor component={Link} to={paths.geofences}>
              {t('GeofenceBack')}
            </Anchor>
          }
        >
          {t('GeofenceNotFound')}
        </MessageState>
      );
    }
    return (
      <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(existing.error)}</span>
          <Button variant="default" size="xs" onClick={() => void existing.refetch()} loading={existing.isFetching}>
            {t('TryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <PageLoader />;
}

function GeofenceForm({ geofence }: { geofence?: Geofence }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const all = useGeofences();
  const save = useSaveGeofence();
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<GeofenceFormValues, unknown, GeofenceFormValues>({
    resolver: zodResolver(geofenceFormSchema) as never,
    defaultValues: formValuesOf(geofence),
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const center = form.watch('center');

  const counts = useMemo(() => geofenceCounts(all.data ?? [], geofence?.id), [all.data, geofence?.id]);
  // Units of the geofence name their chips before the picker's pages do.
  const knownNames = useMemo(() => new Map((geofence?.units ?? []).map((u) => [u.imei, u.name])), [geofence?.units]);
  const atLimit = useCallback(
    (u: UnitListItem) => ((counts.get(u.imei) ?? 0) >= MAX_GEOFENCES_PER_UNIT ? t('GeofenceUnitAtLimit', { name: u.registrationNumber ? `${u.name} (${u.registrationNumber})` : u.name }) : null),
    [counts, t],
  );

  const submit = form.handleSubmit(
    (values) => {
      setFailure(null);
      save.mutate(
        { ...(geofence ? { id: geofence.id } : {}), body: requestOf(values) },
        {
          onSuccess: () => {
            notifications.show({ color: 'green', message: t('GeofenceSaved', { name: values.name.trim() }), withBorder: true, closeButtonProps: { 'aria-label': t('GeofenceClose') } });
            void navigate(paths.geofences);
          },
          onError: (error) => {
            let placed = false;
            if (error instanceof ApiError) {
              for (const [field, list] of Object.entries(error.fieldErrors)) {
                const target = formFieldOf(field);
                const key = list[0];
                if (target && key) {
                  form.setError(target as Path<GeofenceFormValues>, { type: 'server', message: key }, { shouldFocus: !placed });
                  placed = true;
                }
              }
            }
            if (!placed) setFailure(errorMessage(error));
          },
        },
      );
    },
    () => setFailure(null),
  );

  const windowErrors = (errors.windows as unknown as Array<{ days?: { message?: string }; from?: { message?: string }; to?: { message?: string } } | undefined> | undefined) ?? [];

  return (
    <Stack gap="md" maw={1280}>
      <Group justify="space-between">
        <Anchor component={Link} to={paths.geofences} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} aria-hidden />
            {t('GeofenceBack')}
          </Group>
        </Anchor>
      </Group>
      <Text component="h2" fw={700} size="lg" m={0}>
        {geofence ? t('GeofenceEditTitle') : t('GeofenceNewTitle')}
      </Text>
      <form onSubmit={(event) => void submit(event)} noValidate aria-label={geofence ? t('GeofenceEditTitle') : t('GeofenceNewTitle')}>
        <div className="geo-edit-grid">
          <Stack gap="sm">
            <AddressSearch near={center} onPick={(a) => form.setValue('center', { lat: a.lat, lon: a.lon }, { shouldValidate: form.formState.isSubmitted, shouldDirty: true })} />
            <Controller
              control={form.control}
              name="radius"
              render={({ field: radiusField }) => (
                <Controller
                  control={form.control}
                  name="center"
                  render={({ field: centerField }) => (
                    <CircleEditor
                      label={t('GeofenceMapLabel')}
                      center={centerField.value}
                      radius={radiusField.value}
                      minRadius={GEOFENCE_RADIUS_MIN_M}
                      maxRadius={GEOFENCE_RADIUS_MAX_M}
                      radiusError={fieldErrorText(errors.radius?.message)}
                      centerError={fieldErrorText(errors.center?.message)}
                      onChange={(v) => {
                        centerField.onChange(v.center);
                        radiusField.onChange(v.radius);
                        if (form.formState.isSubmitted) void form.trigger(['center', 'radius']);
                      }}
                    />
                  )}
                />
              )}
            />
          </Stack>
          <Stack gap="md">
            <TextInput
              label={t('GeofenceName')}
              required
              maxLength={GEOFENCE_NAME_MAX}
              autoComplete="off"
              {...form.register('name')}
              error={fieldErrorText(errors.name?.message)}
              data-testid="geofence-name"
            />
            <Controller
              control={form.control}
              name="imeis"
              render={({ field }) => (
                <UnitPicker
                  label={t('GeofenceUnits')}
                  description={t('GeofenceUnitsHint')}
                  value={field.value}
                  onChange={field.onChange}
                  knownNames={knownNames}
                  unavailable={atLimit}
                  error={fieldErrorText(errors.imeis?.message)}
                  testId="geofence-units"
                />
              )}
            />
            <Controller
              control={form.control}
              name="alarm"
              render={({ field }) => (
                <Switch label={t('GeofenceAlarm')} description={t('GeofenceAlarmHint')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
              )}
            />
            <Controller
              control={form.control}
              name="active"
              render={({ field }) => (
                <Switch label={t('GeofenceActive')} description={t('GeofenceActiveHint')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
              )}
            />
            <Controller
              control={form.control}
              name="theftMode"
              render={({ field }) => (
                <Switch label={t('GeofenceTheftMode')} description={t('GeofenceTheftModeHint')} checked={field.value} onChange={(e) => field.onChange(e.currentTarget.checked)} />
              )}
            />
            <Controller
              control={form.control}
              name="windows"
              render={({ field }) => (
                <WeeklyWindowsEditor
                  label={t('GeofenceSchedule')}
                  hint={t('GeofenceScheduleHint')}
                  emptyText={t('GeofenceNoWindows')}
                  value={field.value}
                  onChange={field.onChange}
                  error={fieldErrorText((errors.windows as { message?: string } | undefined)?.message)}
                  errors={windowErrors.map((e) => (e ? { days: fieldErrorText(e.days?.message), from: fieldErrorText(e.from?.message), to: fieldErrorText(e.to?.message) } : undefined))}
                />
              )}
            />
            {failure ? (
              <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />}>
                {failure}
              </Alert>
            ) : null}
            <Group justify="space-between">
              <Group gap="sm">
                <Button type="submit" loading={save.isPending} data-testid="geofence-save">
                  {t('GeofenceSave')}
                </Button>
                <Button component={Link} to={paths.geofences} variant="default">
                  {t('Cancel')}
                </Button>
              </Group>
              {geofence ? (
                <Button variant="subtle" color="red" onClick={() => setDeleting(true)} data-testid="geofence-delete">
                  {t('GeofenceDelete')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </div>
      </form>
      <DeleteGeofenceModal geofence={deleting && geofence ? geofence : null} onClose={() => setDeleting(false)} onDeleted={() => void navigate(paths.geofences)} />
    </Stack>
  );
}
