/**
 * The unit editor's Bluetooth sensors section (spec sections 2, 3, 4 and 9): the unit's sensors
 * with their pairing state (pending, the poor-coverage state after 120 s, refused, replaced by a
 * later command, paired), the last reading and its time, the alarms they are in, "n of 4"; adding
 * by MAC (masked as typed), editing the name and alarm limits, sending the pairing again, and
 * unpairing after a confirmation. Live `command` messages of the unit refresh the list, so a
 * pairing shows as paired when the tracker acknowledges it.
 *
 * Loads its own texts (the sensors module), so it can sit in any page.
 */
import { Alert, Badge, Button, Checkbox, ColorSwatch, Group, Loader, Modal, NativeSelect, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMac, sensorKinds, SENSOR_NAME_MAX, type Sensor, type SensorAlarmKind, type SensorKind } from '../../../../../shared/schemas/sensors';
import type { LiveMessage } from '../../../../../shared/schemas/live';
import { ApiError, errorMessage } from '../../../app/api-client';
import { useLiveMessages, useLiveStatus } from '../../../app/live/use-live';
import { currentLanguage, intlLocale, loadFeatureMessages, translateMessage } from '../../../i18n/i18n';
import { sensorsQueryKey, useSensorChange, useSensors } from '../api/sensor-api';
import { createRequest, emptySensorForm, maskMac, sensorFormOf, serverErrors, updateRequest, type SensorFormErrors, type SensorFormValues } from '../sensor-form';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

const READING_REFRESH_MS = 5000;

const KIND_KEY: Record<SensorKind, string> = {
  temperature: 'SensorKindTemperature',
  humidity: 'SensorKindHumidity',
  door: 'SensorKindDoor',
  tag: 'SensorKindTag',
};
const ALARM_KEY: Record<SensorAlarmKind, string> = {
  tempHigh: 'SensorAlarmTempHigh',
  tempLow: 'SensorAlarmTempLow',
  humHigh: 'SensorAlarmHumHigh',
  humLow: 'SensorAlarmHumLow',
  doorOpen: 'SensorAlarmDoorOpen',
  lowBattery: 'SensorAlarmLowBattery',
};

/** The pairing's state in words, or null when paired. */
function pairingText(sensor: Sensor): { key: string; color: string; retry: boolean } | null {
  if (sensor.status === 'paired') return null;
  if (sensor.error) return { key: sensor.error, color: 'red', retry: true };
  switch (sensor.command?.status) {
    case 'pending':
      return { key: 'SensorStatusPending', color: 'blue', retry: false };
    case 'unanswered':
      return { key: 'SensorStatusNoAnswer', color: 'orange', retry: true };
    case 'cancelled':
      return { key: 'SensorStatusCancelled', color: 'orange', retry: true };
    default:
      return { key: 'SensorStatusNotSent', color: 'orange', retry: true };
  }
}

function useSensorTexts() {
  // Subscribes to language changes, so the module is loaded again in the new language.
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ['feature-texts', 'sensors', i18n.language],
    queryFn: () => loadFeatureMessages('sensors').then(() => true),
    staleTime: Infinity,
  });
}

export function UnitSensors({ imei }: { imei: string }) {
  const texts = useSensorTexts();
  const headingId = useId();
  if (!texts.data) return <Loader size="sm" aria-label="…" />;
  return <SensorsSection imei={imei} headingId={headingId} />;
}

function SensorsSection({ imei, headingId }: { imei: string; headingId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sensors = useSensors(imei);
  const change = useSensorChange(imei);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Sensor | null>(null);
  const [unpairing, setUnpairing] = useState<Sensor | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  useLiveStatus();
  // A command's change (pairing) asks at once; the unit's positions and events (readings, alarms) at most every 5 s.
  const lastAsked = useRef(0);
  const pendingAsk = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (pendingAsk.current !== null) clearTimeout(pendingAsk.current);
  }, []);
  useLiveMessages(
    useCallback(
      (message: LiveMessage) => {
        if (message.imei !== imei) return;
        const ask = () => {
          lastAsked.current = Date.now();
          void queryClient.invalidateQueries({ queryKey: sensorsQueryKey(imei) });
        };
        const wait = lastAsked.current + READING_REFRESH_MS - Date.now();
        if (message.type === 'command' || wait <= 0) ask();
        // Within the window: once at its end, so the latest reading is not missed.
        else if (pendingAsk.current === null) {
          pendingAsk.current = setTimeout(() => {
            pendingAsk.current = null;
            ask();
          }, wait);
        }
      },
      [imei, queryClient],
    ),
  );

  const data = sensors.data;
  const full = data ? data.sensors.length >= data.max : true;

  const act = (run: () => Promise<unknown>, doneKey: string) => {
    setFailure(null);
    run().then(
      () => setAnnouncement(t(doneKey)),
      (error: unknown) => setFailure(errorMessage(error)),
    );
  };

  return (
    // Not a named region: the page that holds the section (the editor's accordion panel) names it.
    <Stack gap="sm" component="section" data-testid="unit-sensors">
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Title order={3} size="h4" id={headingId}>
          {t('SensorsTitle')}
        </Title>
        {data ? (
          <Badge variant="outline" color="dark" size="lg">
            {t('SensorsCount', { count: data.sensors.length, max: data.max })}
          </Badge>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed">
        {t('SensorsIntro')}
      </Text>
      {data?.protocol === 'teltonika' ? (
        <Alert color="blue" variant="light">
          {t('SensorsTeltonikaNote')}
        </Alert>
      ) : null}
      <VisuallyHidden role="status" aria-live="polite">
        {announcement}
      </VisuallyHidden>
      {failure ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => setFailure(null)} closeButtonLabel={t('SensorClose')}>
          {failure}
        </Alert>
      ) : null}
      {sensors.isPending ? <Loader size="sm" aria-label={t('SensorsTitle')} /> : null}
      {sensors.isError ? (
        <LockedOrFailed error={sensors.error}>
<Alert color="red" role="alert">
          {t('SensorsLoadFailed')}
        </Alert>
</LockedOrFailed>
      ) : null}
      {data && data.sensors.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('SensorsNone')}
        </Text>
      ) : null}
      {data ? (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.sensors.map((sensor) => (
            <SensorCard
              key={sensor.id}
              sensor={sensor}
              busy={change.isPending}
              onEdit={() => setEditing(sensor)}
              onUnpair={() => setUnpairing(sensor)}
              onPairAgain={() => act(() => change.mutateAsync({ kind: 'pair', id: sensor.id }), 'SensorPairSent')}
            />
          ))}
        </Stack>
      ) : null}
      <Group>
        <Button onClick={() => setAdding(true)} disabled={!data || full}>
          {t('SensorAdd')}
        </Button>
      </Group>

      <SensorFormModal
        opened={adding}
        title={t('SensorAddTitle')}
        initial={emptySensorForm}
        withMac
        onClose={() => setAdding(false)}
        onSubmit={async (values) => {
          const request = createRequest(values);
          if ('errors' in request) return request.errors;
          await change.mutateAsync({ kind: 'add', body: request.body });
          setAnnouncement(t('SensorAdded'));
          setAdding(false);
          return null;
        }}
      />
      <SensorFormModal
        opened={editing !== null}
        title={editing ? t('SensorEditTitle', { name: editing.name }) : ''}
        initial={editing ? sensorFormOf(editing) : emptySensorForm}
        withMac={false}
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          const request = updateRequest(values);
          if ('errors' in request) return request.errors;
          await change.mutateAsync({ kind: 'edit', id: editing!.id, body: request.body });
          setAnnouncement(t('SensorSaved'));
          setEditing(null);
          return null;
        }}
      />
      <Modal opened={unpairing !== null} onClose={() => setUnpairing(null)} title={unpairing ? t('SensorUnpairTitle', { name: unpairing.name }) : ''} centered closeButtonProps={{ 'aria-label': t('SensorClose') }}>
        <Stack gap="md">
          <Text size="sm">{t('SensorUnpairText')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setUnpairing(null)}>
              {t('SensorCancel')}
            </Button>
            <Button
              color="red.8"
              loading={change.isPending}
              onClick={() => {
                const target = unpairing!;
                setUnpairing(null);
                act(() => change.mutateAsync({ kind: 'unpair', id: target.id }), 'SensorRemoved');
              }}
            >
              {t('SensorUnpairConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function readingParts(sensor: Sensor, t: (key: string, vars?: Record<string, string | number>) => string, number: Intl.NumberFormat): string[] {
  const r = sensor.lastReading;
  const volts = new Intl.NumberFormat(number.resolvedOptions().locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (!r) return [];
  const parts: string[] = [];
  if (r.temp !== null) parts.push(t('SensorTemp', { value: number.format(r.temp) }));
  if (r.hum !== null) parts.push(t('SensorHum', { value: number.format(r.hum) }));
  if (r.door !== null) parts.push(t(r.door ? 'SensorDoorOpen' : 'SensorDoorClosed'));
  if (r.bat !== null) parts.push(t('SensorBatteryVolts', { value: volts.format(r.bat) }));
  if (r.batPct !== null) parts.push(t('SensorBatteryPct', { value: number.format(r.batPct) }));
  return parts;
}

function SensorCard({ sensor, busy, onEdit, onUnpair, onPairAgain }: { sensor: Sensor; busy: boolean; onEdit: () => void; onUnpair: () => void; onPairAgain: () => void }) {
  const { t } = useTranslation();
  const locale = intlLocale(currentLanguage());
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const pairing = pairingText(sensor);
  const badgeColor = sensor.status === 'paired' ? 'green' : (pairing?.color ?? 'blue');
  const parts = readingParts(sensor, (key, vars) => t(key, vars ?? {}), number);
  const nameId = useId();
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-labelledby={nameId}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Text fw={600} id={nameId}>
              {sensor.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {t(KIND_KEY[sensor.kind])} · {formatMac(sensor.mac)}
            </Text>
          </Stack>
          <Badge color="dark" variant="outline" leftSection={<ColorSwatch color={`var(--mantine-color-${badgeColor}-6)`} size={8} withShadow={false} aria-hidden />}>
            {t(sensor.status === 'paired' ? 'SensorStatusPaired' : pairing?.key === 'SensorStatusPending' ? 'SensorStatusPending' : 'SensorStatusNotPaired')}
          </Badge>
        </Group>
        {pairing && pairing.key !== 'SensorStatusPending' ? (
          <Text size="sm" c={pairing.color === 'red' ? 'red.8' : 'orange.9'}>
            {translateMessage(pairing.key)}
          </Text>
        ) : null}
        {parts.length ? (
          <Text size="sm">
            {parts.join(' · ')}{' '}
            <Text span size="xs" c="dimmed">
              ({t('SensorLastReading', { time: time.format(new Date(sensor.lastReading!.time)) })})
            </Text>
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('SensorNoReading')}
          </Text>
        )}
        {sensor.alarms.length ? (
          <Group gap={6} aria-label={t('SensorInAlarm')}>
            {sensor.alarms.map((a) => (
              <Badge key={a} color="red.9" variant="filled" size="sm">
                {t(ALARM_KEY[a])}
              </Badge>
            ))}
          </Group>
        ) : null}
        <Group gap="xs" role="group" aria-label={t('SensorsActions', { name: sensor.name })}>
          <Button size="xs" variant="default" onClick={onEdit}>
            {t('SensorEdit')}
          </Button>
          {pairing?.retry ? (
            <Button size="xs" variant="light" onClick={onPairAgain} disabled={busy}>
              {t('SensorPairAgain')}
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" color="red" onClick={onUnpair}>
            {t('SensorUnpair')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

interface FormProps {
  opened: boolean;
  title: string;
  initial: SensorFormValues;
  withMac: boolean;
  onClose: () => void;
  /** Answers the form's errors, or null when saved. */
  onSubmit: (values: SensorFormValues) => Promise<SensorFormErrors | null>;
}

function SensorFormModal({ opened, title, initial, withMac, onClose, onSubmit }: FormProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="lg" closeButtonProps={{ 'aria-label': t('SensorClose') }}>
      {opened ? <SensorForm initial={initial} withMac={withMac} onClose={onClose} onSubmit={onSubmit} /> : null}
    </Modal>
  );
}

function SensorForm({ initial, withMac, onClose, onSubmit }: Omit<FormProps, 'opened' | 'title'>) {
  const { t } = useTranslation();
  const [values, setValues] = useState<SensorFormValues>(initial);
  const [errors, setErrors] = useState<SensorFormErrors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof SensorFormValues>(field: K, value: SensorFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const err = (field: keyof SensorFormValues) => (errors[field] ? translateMessage(errors[field]) : undefined);
  const numberField = (field: 'tempMin' | 'tempMax' | 'humMin' | 'humMax', label: string, min: number, max: number) => (
    <NumberInput
      label={label}
      value={values[field]}
      onChange={(v) => set(field, String(v))}
      min={min}
      max={max}
      step={field.startsWith('temp') ? 0.5 : 1}
      decimalScale={1}
      clampBehavior="none"
      decimalSeparator={currentLanguage() === 'en' ? '.' : ','}
      allowDecimal
      error={err(field)}
    />
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setGeneral(null);
    setSaving(true);
    try {
      const found = await onSubmit(values);
      if (found) setErrors(found);
    } catch (error) {
      const onFields = error instanceof ApiError ? serverErrors(error.fieldErrors) : {};
      setErrors(onFields);
      if (Object.keys(onFields).length === 0) setGeneral(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const kind = values.kind;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {general ? (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        ) : null}
        {withMac ? (
          <TextInput
            label={t('SensorMac')}
            description={t('SensorMacHint')}
            value={values.mac}
            onChange={(e) => set('mac', maskMac(e.currentTarget.value))}
            placeholder="AC:23:F4:1A:BC:DE"
            autoComplete="off"
            spellCheck={false}
            maxLength={17}
            required
            error={err('mac')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        ) : null}
        <TextInput label={t('SensorName')} value={values.name} onChange={(e) => set('name', e.currentTarget.value)} maxLength={SENSOR_NAME_MAX} required error={err('name')} />
        {withMac ? (
          <NativeSelect
            label={t('SensorKind')}
            value={values.kind}
            onChange={(e) => set('kind', e.currentTarget.value as SensorKind)}
            data={sensorKinds.map((k) => ({ value: k, label: t(KIND_KEY[k]) }))}
            error={err('kind')}
          />
        ) : null}
        <Text fw={600} size="sm" mt="xs">
          {t('SensorThresholds')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('SensorThresholdsHint')}
        </Text>
        {kind === 'temperature' || kind === 'humidity' ? (
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {numberField('tempMin', t('SensorTempMin'), -20, 60)}
            {numberField('tempMax', t('SensorTempMax'), -20, 60)}
            {numberField('humMin', t('SensorHumMin'), 0, 100)}
            {numberField('humMax', t('SensorHumMax'), 0, 100)}
          </SimpleGrid>
        ) : null}
        {kind === 'door' ? <Checkbox label={t('SensorDoorAlarm')} checked={values.doorOpen} onChange={(e) => set('doorOpen', e.currentTarget.checked)} /> : null}
        <Checkbox label={t('SensorBatteryAlarm')} checked={values.lowBattery} onChange={(e) => set('lowBattery', e.currentTarget.checked)} />
        <Group justify="flex-end" gap="sm" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('SensorCancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('SensorSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
