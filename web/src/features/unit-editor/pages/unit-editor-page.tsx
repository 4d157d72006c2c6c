/**
 * The unit editor (/user/edit-terminal?imei=..., spec sections 2, 3, 5, 6 and 9): one accordion
 * section per part of the unit, each saved on its own. Pictures, sensors and the access lock are
 * their features' components; `extraSections` is where they are mounted. `&print=theft` is the
 * printable theft report.
 */
import '../unit-editor.css';
import { Accordion, Alert, Anchor, Badge, Button, Checkbox, ColorInput, Group, NativeSelect, Paper, SimpleGrid, Stack, Switch, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconTruckOff from '@tabler/icons-react/dist/esm/icons/IconTruckOff.mjs';
import { useMemo, useState, type ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, get, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { operatingModes } from '../../../../../shared/schemas/commands';
import { markerSymbols } from '../../../../../shared/schemas/tracking';
import {
  DIN_LABEL_MAX_CHARS,
  ecoSensitivities,
  frequencyUnits,
  fuelTypes,
  serviceKinds,
  subscriptionTypes,
  UNIT_IO_NUMBERS,
  UNIT_NAME_MAX,
  vehicleTypes,
  type ServiceKind,
  type UnitEditor,
} from '../../../../../shared/schemas/unit-editor';
import { DOUT_LABEL_MAX_CHARS } from '../../../../../shared/schemas/commands';
import { ApiError, errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { intlLocale } from '../../../i18n/i18n';
import { fieldErrorText } from '../../../ui/form-errors';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { UnitCommands } from '../../commands/components/unit-commands';
import { LockedOrFailed, lockedByAmong, TrackerLocked } from '../../unit-lock/components/tracker-locked';
import { useDeleteOdometerEntry, useOdometerEntries } from '../../triplog/api/trip-api';
import { unitEditorQueryKey, useDeleteOperatingHoursEntry, useOperatingHoursEntries, useSaveUnit, useUnitEditor } from '../api/unit-editor-api';
import { SectionForm } from '../components/section-form';
import { TheftReport } from '../components/theft-report';
import { vehicleTypeLabel } from '../../units/unit-list';
import { DateField } from '../../../ui/date-fields';
import { defaultPhoneCountry, PHONE_INPUT_MAX, phoneFormValues } from '../../../../../shared/validators/phone';
import { parseLanguage } from '../../../app/preferences';
import { phoneCountryOptions } from '../../registration/countries';

/** A section the lead mounts from another feature (pictures, sensors, access lock). */
export interface EditorSection {
  id: string;
  title: string;
  element: ReactNode;
}

/** A yyyy-MM-dd day as the reader writes dates. */
const formatDay = (day: string) => new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/**
 * A number field's value for the request: empty is null, a decimal comma is read as a point, and
 * text that is no number is sent as typed, so that the server's check names the field (rather than
 * the value being dropped).
 */
const num = (v: unknown): number | null => {
  if (v === '' || v === null || v === undefined) return null;
  const typed = String(v).trim();
  const n = Number(typed.replace(',', '.'));
  return typed !== '' && Number.isFinite(n) ? n : (typed as unknown as number);
};
/** Readings listed per kind in the editor (the trip log lists all odometer readings). */
const RECENT_READINGS = 5;
const errorOf = <T extends FieldValues>(form: UseFormReturn<T>, name: string) => fieldErrorText((get(form.formState.errors, name) as { message?: string } | undefined)?.message);

export function UnitEditorPage({ extraSections = [] }: { extraSections?: readonly EditorSection[] }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const imei = search.get('imei');
  const query = useUnitEditor(imei);
  if (imei === null || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <MessageState
        icon={<IconTruckOff size={30} stroke={1.6} />}
        title={t('UnitNotFound')}
        action={
          <Button component={Link} to={paths.editTerminalList} variant="default">
            {t('UnitEditorBackToList')}
          </Button>
        }
      >
        {t('UnitEditorNotFoundHelp')}
      </MessageState>
    );
  }
  if (query.data) {
    if (search.get('print') === 'theft') return <TheftReport unit={query.data} />;
    return <Editor key={query.data.imei} unit={query.data} extraSections={extraSections} />;
  }
  if (query.isPending) return <PageLoader />;
  return (
    <LockedOrFailed error={query.error}>
      <MessageState icon={<IconAlertTriangle size={30} stroke={1.6} />} title={t('SomethingWentWrong')} color="red">
        {errorMessage(query.error)}
      </MessageState>
    </LockedOrFailed>
  );
}

function Editor({ unit, extraSections }: { unit: UnitEditor; extraSections: readonly EditorSection[] }) {
  const { t } = useTranslation();
  const sections: EditorSection[] = [
    { id: 'basics', title: t('UnitEditorBasics'), element: <BasicsSection unit={unit} /> },
    { id: 'description', title: t('UnitEditorObjectDescription'), element: <DescriptionSection unit={unit} /> },
    { id: 'theft', title: t('UnitEditorTheftInfo'), element: <TheftSection unit={unit} /> },
    { id: 'fuel', title: t('UnitEditorFuel'), element: <FuelSection unit={unit} /> },
    { id: 'odometer', title: t('UnitEditorOdometer'), element: <OdometerSection unit={unit} /> },
    { id: 'service', title: t('UnitEditorService'), element: <ServiceSection unit={unit} /> },
    { id: 'driving', title: t('UnitEditorDriving'), element: <DrivingSection unit={unit} /> },
    { id: 'alarms', title: t('UnitEditorAlarms'), element: <AlarmsSection unit={unit} /> },
    { id: 'outputs', title: t('UnitEditorOutputs'), element: <OutputsSection unit={unit} /> },
    { id: 'commands', title: t('UnitEditorCommands'), element: <UnitCommands unit={unit.realtime} /> },
    { id: 'reporting', title: t('UnitEditorReporting'), element: <ReportingSection unit={unit} /> },
    ...extraSections,
    { id: 'history', title: t('UnitEditorNameHistory'), element: <NameHistory unit={unit} /> },
  ];
  return (
    <Stack gap="md" className="unit-editor" p={{ base: 'xs', sm: 'md' }}>
      <Group justify="space-between" wrap="wrap">
        <div>
          <Title order={2} size="h2">
            {unit.name}
          </Title>
          <Text size="sm" c="dimmed">
            {t('UnitEditorIdentity', { imei: unit.imei, registrationNumber: unit.registrationNumber ?? '-' })}
          </Text>
        </div>
        <Anchor component={Link} to={paths.editTerminalList}>
          {t('UnitEditorBackToList')}
        </Anchor>
      </Group>
      <Accordion multiple defaultValue={['basics']} variant="separated" order={3}>
        {sections.map((s) => (
          <Accordion.Item key={s.id} value={s.id}>
            <Accordion.Control>{s.title}</Accordion.Control>
            <Accordion.Panel>{s.element}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

function BasicsSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  return (
    <SectionForm
      unit={unit}
      label={t('UnitEditorBasics')}
      defaultsOf={(u) => ({
        name: u.name,
        registrationNumber: u.registrationNumber ?? '',
        colour: u.colour,
        symbol: u.symbol,
        vehicleType: u.vehicleType,
        subscriptionType: u.subscriptionType ?? '',
      })}
      toBody={(v) => ({
        name: v.name,
        ...(v.registrationNumber !== (unit.registrationNumber ?? '') ? { registrationNumber: v.registrationNumber || null } : {}),
        colour: v.colour,
        symbol: v.symbol as never,
        vehicleType: v.vehicleType as never,
        ...(unit.isSupport ? { subscriptionType: (v.subscriptionType || null) as never } : {}),
      })}
    >
      {(form) => (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('UnitEditorName')} required maxLength={UNIT_NAME_MAX} {...form.register('name')} error={errorOf(form, 'name')} />
          <TextInput
            label={t('UnitEditorRegistrationNumber')}
            description={t('UnitEditorRegistrationChangesLeft', { count: unit.registrationChangesLeft })}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...form.register('registrationNumber')}
            error={errorOf(form, 'registrationNumber')}
          />
          <ColorInput
            label={t('UnitEditorColour')}
            value={form.watch('colour')}
            onChange={(v) => form.setValue('colour', v, { shouldDirty: true })}
            error={errorOf(form, 'colour')}
            format="hex"
            eyeDropperButtonProps={{ 'aria-label': t('UnitEditorPickColour') }}
          />
          <NativeSelect label={t('UnitEditorSymbol')} data={markerSymbols.map((s) => ({ value: s, label: t(`UnitSymbol_${s}`) }))} {...form.register('symbol')} error={errorOf(form, 'symbol')} />
          <NativeSelect
            label={t('UnitEditorVehicleType')}
            data={[...new Set([...vehicleTypes, unit.vehicleType])].map((v) => ({ value: v, label: vehicleTypeLabel(t, v) }))}
            {...form.register('vehicleType')}
            error={errorOf(form, 'vehicleType')}
          />
          <NativeSelect
            label={t('UnitEditorSubscriptionType')}
            description={unit.isSupport ? undefined : t('UnitEditorSubscriptionReadOnly')}
            disabled={!unit.isSupport}
            data={[{ value: '', label: t('UnitEditorNotSet') }, ...subscriptionTypes.map((s) => ({ value: s, label: s }))]}
            {...form.register('subscriptionType')}
            error={errorOf(form, 'subscriptionType')}
          />
        </SimpleGrid>
      )}
    </SectionForm>
  );
}

const DESCRIPTION_TEXTS = ['manufacturer', 'model', 'hullNumber', 'motorNumber', 'chassisNumber', 'insuranceCompany', 'insuranceNumber'] as const;

function DescriptionSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  return (
    <SectionForm
      unit={unit}
      label={t('UnitEditorObjectDescription')}
      defaultsOf={({ objectDescription: d }) => ({ ...d, year: d.year === null ? '' : String(d.year), links: d.links.join('\n') })}
      fieldOf={(f) => (f.startsWith('objectDescription.links') ? 'links' : f.replace(/^objectDescription\./, ''))}
      toBody={(v) => ({
        objectDescription: {
          ...Object.fromEntries(DESCRIPTION_TEXTS.map((k) => [k, v[k]])),
          year: num(v.year),
          links: v.links
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean),
        },
      })}
    >
      {(form) => (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {DESCRIPTION_TEXTS.map((k) => (
            <TextInput key={k} label={t(`UnitEditor_${k}`)} {...form.register(k)} error={errorOf(form, k)} />
          ))}
          <TextInput label={t('UnitEditor_year')} inputMode="numeric" {...form.register('year')} error={errorOf(form, 'year')} />
          <Textarea label={t('UnitEditorLinks')} description={t('UnitEditorLinksHint')} autosize minRows={2} {...form.register('links')} error={errorOf(form, 'links')} />
        </SimpleGrid>
      )}
    </SectionForm>
  );
}

const THEFT_TEXTS = ['place', 'policeStation', 'reportNumber', 'claimNumber', 'ownerName', 'ownerEmail'] as const;

function TheftSection({ unit }: { unit: UnitEditor }) {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const countryOptions = useMemo(() => phoneCountryOptions(lang).map((o) => ({ value: o.value, label: o.label })), [lang]);
  return (
    <Stack gap="sm">
      <SectionForm
        unit={unit}
        label={t('UnitEditorTheftInfo')}
        defaultsOf={(u) => {
          // The owner's number in its own country's display form; a new one starts in the portal language's country.
          const phone = phoneFormValues(u.theft.ownerPhone, defaultPhoneCountry(lang));
          return { ...u.theft, date: u.theft.date ?? '', ownerPhone: phone.phone, ownerPhoneCountry: phone.country };
        }}
        fieldOf={(f) => f.replace(/^theft\./, '')}
        toBody={(v) => ({ theft: { ...v, date: v.date || null } })}
      >
        {(form) => (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Controller
              control={form.control}
              name="date"
              render={({ field }) => (
                <DateField label={t('UnitEditorTheft_date')} name={field.name} value={String(field.value ?? '')} onChange={field.onChange} onBlur={field.onBlur} error={errorOf(form, 'date')} clearable />
              )}
            />
            {THEFT_TEXTS.map((k) => (
              <TextInput key={k} label={t(`UnitEditorTheft_${k}`)} {...form.register(k)} error={errorOf(form, k)} />
            ))}
            <NativeSelect label={t('UnitEditorTheft_ownerPhoneCountry')} data={countryOptions} {...form.register('ownerPhoneCountry')} error={errorOf(form, 'ownerPhoneCountry')} />
            <TextInput label={t('UnitEditorTheft_ownerPhone')} type="tel" autoComplete="off" maxLength={PHONE_INPUT_MAX} {...form.register('ownerPhone')} error={errorOf(form, 'ownerPhone')} />
            <Textarea label={t('UnitEditorTheft_otherInfo')} autosize minRows={2} {...form.register('otherInfo')} error={errorOf(form, 'otherInfo')} />
          </SimpleGrid>
        )}
      </SectionForm>
      <Group>
        <Button component="a" variant="default" href={`${paths.editTerminal}?imei=${unit.imei}&print=theft`} target="_blank" rel="noopener">
          {t('UnitEditorPrintTheftReport')}
        </Button>
      </Group>
    </Stack>
  );
}

function FuelSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  return (
    <SectionForm
      unit={unit}
      label={t('UnitEditorFuel')}
      defaultsOf={(u) => ({ fuelType: u.fuelType ?? '', consumption: u.consumption?.toString() ?? '', idleConsumption: u.idleConsumption?.toString() ?? '', co2: u.co2?.toString() ?? '', nextInspection: u.nextInspection ?? '' })}
      toBody={(v) => ({
        fuelType: (v.fuelType || undefined) as never,
        consumption: num(v.consumption) ?? (undefined as never),
        idleConsumption: num(v.idleConsumption) ?? null,
        co2: num(v.co2) ?? (undefined as never),
        nextInspection: v.nextInspection || null,
      })}
    >
      {(form) => (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('UnitEditorFuelType')}
            required
            data={[{ value: '', label: t('UnitEditorChoose') }, ...fuelTypes.map((f) => ({ value: f, label: t(`FuelType_${f}`) }))]}
            {...form.register('fuelType')}
            error={errorOf(form, 'fuelType')}
          />
          <TextInput label={t('UnitEditorConsumption')} required inputMode="decimal" {...form.register('consumption')} error={errorOf(form, 'consumption')} />
          <TextInput label={t('UnitEditorIdleConsumption')} inputMode="decimal" {...form.register('idleConsumption')} error={errorOf(form, 'idleConsumption')} />
          <TextInput label={t('UnitEditorCo2')} required inputMode="decimal" {...form.register('co2')} error={errorOf(form, 'co2')} />
          <Controller
            control={form.control}
            name="nextInspection"
            render={({ field }) => (
              <DateField label={t('UnitEditorNextInspection')} name={field.name} value={String(field.value ?? '')} onChange={field.onChange} onBlur={field.onBlur} error={errorOf(form, 'nextInspection')} clearable />
            )}
          />
        </SimpleGrid>
      )}
    </SectionForm>
  );
}

function OdometerSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  const n = (v: number) => v.toLocaleString(intlLocale());
  const queryClient = useQueryClient();
  const odometerEntries = useOdometerEntries(unit.imei);
  const deleteOdometer = useDeleteOdometerEntry(unit.imei);
  const hoursEntries = useOperatingHoursEntries(unit.imei);
  const deleteHours = useDeleteOperatingHoursEntry(unit.imei);
  const refreshUnit = () => void queryClient.invalidateQueries({ queryKey: unitEditorQueryKey(unit.imei) });
  // A unit locked by someone else: its readings are the locker's, so only who locked it shows.
  const lockedBy = lockedByAmong(odometerEntries.error, hoursEntries.error);
  if (lockedBy !== null) return <TrackerLocked lockedBy={lockedBy} />;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Text fw={600} data-testid="odometer-now">
              {unit.odometer === null ? t('UnitEditorOdometerNotReported') : t('UnitEditorOdometerNow', { value: n(unit.odometer) })}
            </Text>
            <ReadingForm unit={unit} field="odometer" label={t('UnitEditorNewOdometer')} />
            <Readings
              title={t('UnitEditorReadingsOdometer')}
              entries={odometerEntries.data}
              unitText={(v) => t('UnitEditorKm', { value: n(v) })}
              deleting={deleteOdometer.isPending ? deleteOdometer.variables : undefined}
              onDelete={(id) => deleteOdometer.mutate(id, { onSuccess: refreshUnit })}
              error={deleteOdometer.error}
            />
            <Text size="sm" c="dimmed">
              {t('UnitEditorOdometerEntriesHint')}
            </Text>
            <Anchor component={Link} to={`${paths.createTriplog}?imei=${unit.imei}`}>
              {t('UnitEditorOdometerEntriesLink')}
            </Anchor>
          </Stack>
        </Paper>
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Text fw={600} data-testid="hours-now">
              {unit.operatingHours === null ? t('UnitEditorHoursNotReported') : t('UnitEditorHoursNow', { value: n(unit.operatingHours) })}
            </Text>
            {unit.operatingHours !== null && !unit.operatingHoursCounted ? (
              <Text size="sm" c="dimmed">
                {t('UnitEditorHoursNotCounted')}
              </Text>
            ) : null}
            <ReadingForm unit={unit} field="operatingHours" label={t('UnitEditorNewHours')} />
            <Readings
              title={t('UnitEditorReadingsHours')}
              entries={hoursEntries.data}
              unitText={(v) => t('UnitEditorHours', { value: n(v) })}
              deleting={deleteHours.isPending ? deleteHours.variables : undefined}
              onDelete={(id) => deleteHours.mutate(id)}
              error={deleteHours.error}
            />
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** A new reading of the odometer (km) or the engine hours "now": a partial save of that one field. */
function ReadingForm({ unit, field, label }: { unit: UnitEditor; field: 'odometer' | 'operatingHours'; label: string }) {
  const { t } = useTranslation();
  return (
    <SectionForm
      unit={unit}
      label={label}
      saveLabel={t('UnitEditorSaveReading')}
      defaultsOf={() => ({ [field]: '' }) as Record<string, string>}
      // Empty is sent as null, so that the server names the missing reading.
      toBody={(v) => ({ [field]: num(v[field]) as never })}
    >
      {(form) => (
        <TextInput
          label={label}
          description={t('UnitEditorReadingHint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          required
          inputMode="decimal"
          autoComplete="off"
          {...form.register(field)}
          error={errorOf(form, field)}
        />
      )}
    </SectionForm>
  );
}

/** The newest readings of one kind, each with a delete button. */
function Readings({
  title,
  entries,
  unitText,
  deleting,
  onDelete,
  error,
}: {
  title: string;
  entries: ReadonlyArray<{ id: string; time: string; value: number }> | undefined;
  unitText: (value: number) => string;
  deleting: string | undefined;
  onDelete: (id: string) => void;
  error: Error | null;
}) {
  const { t } = useTranslation();
  const recent = [...(entries ?? [])].reverse().slice(0, RECENT_READINGS);
  const when = (iso: string) => new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <Stack gap={4}>
      <Title order={4} size="h6">
        {title}
      </Title>
      {entries === undefined ? null : recent.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('UnitEditorNoReadings')}
        </Text>
      ) : (
        <Stack component="ul" gap={4} className="unit-editor-readings" aria-label={title}>
          {recent.map((e) => (
            <Group component="li" key={e.id} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" className="unit-editor-reading">
                {when(e.time)}: <b>{unitText(e.value)}</b>
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                className="unit-editor-reading-delete"
                color="red"
                loading={deleting === e.id}
                onClick={() => onDelete(e.id)}
                aria-label={t('UnitEditorDeleteReadingNamed', { value: unitText(e.value), time: when(e.time) })}
              >
                {t('UnitEditorDeleteReading')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      {error ? (
        <LockedOrFailed error={error}>
          <Alert color="red" variant="light" role="alert" p="xs">
            {errorMessage(error)}
          </Alert>
        </LockedOrFailed>
      ) : null}
    </Stack>
  );
}

/** Filled badges whose text keeps a 4.5:1 contrast (autoContrast picks black on yellow). */
const STATE_COLOURS = { ok: 'teal.9', dueSoon: 'yellow.4', overdue: 'red.9' } as const;

function ServiceSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  const save = useSaveUnit(unit.imei);
  const asInput = unit.serviceIntervals.map(({ id, name, kind, every, lastService }) => ({ id, name, kind, every, lastService }));
  // Serviced now: at the counter the server read (today in the service zone for a date interval).
  const [marking, setMarking] = useState<string | null>(null);
  const markServiced = (id: string) => {
    setMarking(id);
    save.mutate(
      { serviceIntervals: unit.serviceIntervals.map(({ id: sid, name, kind, every, lastService, status }) => ({ id: sid, name, kind, every, lastService: sid === id ? (status.current ?? lastService) : lastService })) },
      { onSuccess: () => notifications.show({ color: 'green', message: t('UnitEditorSaved'), closeButtonProps: { 'aria-label': t('UnitEditorCloseMessage') } }), onSettled: () => setMarking(null) },
    );
  };
  const value = (kind: ServiceKind, v: number | string) =>
    kind === 'date' && typeof v === 'string' ? formatDay(v) : typeof v === 'number' ? v.toLocaleString(intlLocale()) : v;
  return (
    <Stack gap="md">
      {unit.serviceIntervals.length ? (
        <Stack component="ul" gap="xs" className="unit-editor-services" aria-label={t('UnitEditorServiceTable')}>
          {unit.serviceIntervals.map((s) => (
            <Paper component="li" key={s.id} withBorder p="sm" radius="md" data-testid="service-interval">
              <Group justify="space-between" align="flex-start" gap="xs">
                <Stack gap={2}>
                  <Text fw={600}>{s.name}</Text>
                  <Text size="sm">
                    {t(`UnitEditorServiceDueAt_${s.kind}`, { value: value(s.kind, s.status.dueAt) })}
                    {s.status.remaining === null
                      ? ''
                      : ` (${s.status.remaining > 0 ? t(`UnitEditorServiceLeft_${s.kind}`, { value: value(s.kind, s.status.remaining) }) : t(`UnitEditorServiceOver_${s.kind}`, { value: value(s.kind, Math.abs(s.status.remaining)) })})`}
                  </Text>
                </Stack>
                <Badge color={STATE_COLOURS[s.status.state]} variant="filled" autoContrast>
                  {t(`ServiceState_${s.status.state}`)}
                </Badge>
              </Group>
              <Button
                mt="xs"
                size="xs"
                variant="default"
                onClick={() => markServiced(s.id)}
                loading={marking === s.id}
                disabled={s.status.current === null || (marking !== null && marking !== s.id)}
                aria-label={t('UnitEditorMarkServicedNamed', { name: s.name })}
              >
                {t('UnitEditorMarkServiced')}
              </Button>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Text c="dimmed">{t('UnitEditorNoServiceIntervals')}</Text>
      )}
      {save.isError ? (
        <Alert color="red" variant="light" role="alert" p="xs">
          {save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length
            ? Object.values(save.error.fieldErrors)
                .map((keys) => fieldErrorText(keys[0]))
                .join(' ')
            : errorMessage(save.error)}
        </Alert>
      ) : null}
      <Title order={4} size="h5">
        {t('UnitEditorAddServiceInterval')}
      </Title>
      <SectionForm
        unit={unit}
        label={t('UnitEditorAddServiceInterval')}
        // A new interval each time: the form is empty again after a save.
        defaultsOf={() => ({ name: '', kind: 'distance', every: '', lastService: '' })}
        saveLabel={t('UnitEditorAddServiceInterval')}
        fieldOf={(f) => f.replace(/^serviceIntervals\.\d+\./, '')}
        toBody={(v) => ({
          serviceIntervals: [
            ...asInput,
            { name: v.name, kind: v.kind as ServiceKind, every: num(v.every) ?? 0, lastService: v.kind === 'date' ? v.lastService : (num(v.lastService) ?? -1) },
          ],
        })}
      >
        {(form) => {
          const kind = form.watch('kind') as ServiceKind;
          return (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('UnitEditorServiceName')} {...form.register('name')} error={errorOf(form, 'name')} />
              <NativeSelect label={t('UnitEditorServiceKind')} data={serviceKinds.map((k) => ({ value: k, label: t(`ServiceKind_${k}`) }))} {...form.register('kind')} error={errorOf(form, 'kind')} />
              <TextInput label={t(`UnitEditorServiceEvery_${kind}`)} inputMode="numeric" {...form.register('every')} error={errorOf(form, 'every')} />
              <TextInput
                type={kind === 'date' ? 'date' : 'text'}
                label={t(`UnitEditorServiceLast_${kind}`)}
                inputMode={kind === 'date' ? undefined : 'decimal'}
                {...form.register('lastService')}
                error={errorOf(form, 'lastService')}
              />
            </SimpleGrid>
          );
        }}
      </SectionForm>
    </Stack>
  );
}

function DrivingSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  return (
    <SectionForm
      unit={unit}
      label={t('UnitEditorDriving')}
      defaultsOf={(u) => ({ ecoSensitivity: u.ecoSensitivity, timeTillParkedMinutes: String(u.timeTillParkedMinutes) })}
      toBody={(v) => ({ ecoSensitivity: v.ecoSensitivity as never, timeTillParkedMinutes: num(v.timeTillParkedMinutes) as never })}>
      {(form) => (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('UnitEditorEcoSensitivity')}
            description={t('UnitEditorEcoSensitivityHint')}
            data={ecoSensitivities.map((e) => ({ value: e, label: t(`EcoSensitivity_${e}`) }))}
            {...form.register('ecoSensitivity')}
            error={errorOf(form, 'ecoSensitivity')}
          />
          <TextInput label={t('UnitEditorTimeTillParked')} inputMode="numeric" {...form.register('timeTillParkedMinutes')} error={errorOf(form, 'timeTillParkedMinutes')} />
        </SimpleGrid>
      )}
    </SectionForm>
  );
}

function AlarmsSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  return (
    <SectionForm
      unit={unit}
      label={t('UnitEditorAlarms')}
      defaultsOf={(u) => ({
        overspeedKmh: u.overspeedKmh?.toString() ?? '',
        overspeedSeconds: String(u.overspeedSeconds),
        lowBatteryAlert: u.lowBatteryAlert,
        dinAlarms: Object.fromEntries(UNIT_IO_NUMBERS.map((n) => [n, u.dinAlarms[n] ?? false])),
        dinLabels: Object.fromEntries(UNIT_IO_NUMBERS.map((n) => [n, u.dinLabels[n] ?? ''])),
      })}
      toBody={(v) => ({ overspeedKmh: num(v.overspeedKmh), overspeedSeconds: num(v.overspeedSeconds) as never, lowBatteryAlert: v.lowBatteryAlert, dinAlarms: v.dinAlarms, dinLabels: v.dinLabels })}
    >
      {(form) => (
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('UnitEditorOverspeedKmh')} description={t('UnitEditorOverspeedHint')} inputMode="numeric" {...form.register('overspeedKmh')} error={errorOf(form, 'overspeedKmh')} />
            <TextInput label={t('UnitEditorOverspeedSeconds')} inputMode="numeric" {...form.register('overspeedSeconds')} error={errorOf(form, 'overspeedSeconds')} />
          </SimpleGrid>
          <Switch
            label={t('UnitEditorLowBatteryAlert')}
            checked={form.watch('lowBatteryAlert')}
            onChange={(event) => form.setValue('lowBatteryAlert', event.currentTarget.checked, { shouldDirty: true })}
          />
          {UNIT_IO_NUMBERS.map((n) => (
            <Group key={n} align="flex-end" wrap="wrap">
              <TextInput label={t('UnitEditorDinLabel', { input: n })} maxLength={DIN_LABEL_MAX_CHARS} {...form.register(`dinLabels.${n}`)} error={errorOf(form, `dinLabels.${n}`)} />
              <Checkbox
                label={t('UnitEditorDinAlarm', { input: n })}
                checked={form.watch(`dinAlarms.${n}`)}
                onChange={(event) => form.setValue(`dinAlarms.${n}`, event.currentTarget.checked, { shouldDirty: true })}
                mb={8}
              />
            </Group>
          ))}
        </Stack>
      )}
    </SectionForm>
  );
}

function OutputsSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <SectionForm
        unit={unit}
        label={t('UnitEditorOutputs')}
        defaultsOf={(u) => ({ doutLabels: Object.fromEntries(UNIT_IO_NUMBERS.map((n) => [n, u.doutLabels[n] ?? ''])) })}
        toBody={(v) => ({ doutLabels: v.doutLabels })}>
        {(form) => (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {UNIT_IO_NUMBERS.map((n) => (
              <TextInput key={n} label={t('UnitEditorDoutLabel', { output: n })} maxLength={DOUT_LABEL_MAX_CHARS} {...form.register(`doutLabels.${n}`)} error={errorOf(form, `doutLabels.${n}`)} />
            ))}
          </SimpleGrid>
        )}
      </SectionForm>
      <Text size="sm" c="dimmed">
        {t('UnitEditorOutputsHint')}
      </Text>
    </Stack>
  );
}

/** The commands feature's text key of an operating mode (`OperatingModeFixed24h`); `...Description` carries its battery life. */
const modeKey = (mode: string) => `OperatingMode${mode.charAt(0).toUpperCase()}${mode.slice(1)}`;

function ReportingSection({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  const locked = unit.reportFrequencyChange !== 'allowed' && !unit.isSupport;
  return (
    <Stack gap="md">
      {locked ? (
        <Alert color="orange" variant="light" role="note" p="xs">
          {t(unit.reportFrequencyChange === 'locked' ? 'FrequencyLocked' : 'DeniedChangeRF')}
        </Alert>
      ) : null}
      <SectionForm
        unit={unit}
        label={t('UnitEditorReporting')}
        readOnly={locked}
        defaultsOf={(u) => ({ value: u.reportFrequency?.value.toString() ?? '', unit: u.reportFrequency?.unit ?? 'minutes' })}
        fieldOf={(f) => (f === 'reportFrequency' || f === 'reportFrequency.value' ? 'value' : f === 'reportFrequency.unit' ? 'unit' : f)}
        toBody={(v) => ({ reportFrequency: { value: num(v.value) ?? 0, unit: v.unit as never } })}
      >
        {(form) => (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('UnitEditorReportFrequency')} inputMode="numeric" disabled={locked} {...form.register('value')} error={errorOf(form, 'value')} />
            <NativeSelect label={t('UnitEditorReportFrequencyUnit')} disabled={locked} data={frequencyUnits.map((u) => ({ value: u, label: t(`FrequencyUnit_${u}`) }))} {...form.register('unit')} />
          </SimpleGrid>
        )}
      </SectionForm>
      <Title order={4} size="h5" id={`battery-life-${unit.imei}`}>
        {t('UnitEditorBatteryLife')}
      </Title>
      <Table aria-labelledby={`battery-life-${unit.imei}`}>
        <Table.Tbody>
          {operatingModes.map((m) => (
            <Table.Tr key={m}>
              <Table.Th scope="row">{t(modeKey(m))}</Table.Th>
              <Table.Td>{t(`${modeKey(m)}Description`)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed">
        {t('UnitEditorSettingsDelay')}
      </Text>
    </Stack>
  );
}

function NameHistory({ unit }: { unit: UnitEditor }) {
  const { t } = useTranslation();
  if (!unit.nameHistory.length) return <Text c="dimmed">{t('UnitEditorNoNameHistory')}</Text>;
  return (
    <Table aria-label={t('UnitEditorNameHistory')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('UnitEditorName')}</Table.Th>
          <Table.Th>{t('UnitEditorChangedAt')}</Table.Th>
          <Table.Th>{t('UnitEditorChangedBy')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {unit.nameHistory.map((h) => (
          <Table.Tr key={`${h.at}-${h.name}`}>
            <Table.Td>{h.name}</Table.Td>
            <Table.Td>{new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(h.at))}</Table.Td>
            <Table.Td>{h.by}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
