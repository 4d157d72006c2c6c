/**
 * The Settings tab: the account's features (basic-only read-only unless the caller is support),
 * what users may add in the trip log, the default purposes (no spelling duplicates, checked by the
 * server's own schema before asking), the market fuel price with the dated prices per fuel type
 * (fuel-prices-editor.tsx), the working hours in which admins
 * see units locked against them, and the SMS credits left with the balance below which the admins
 * are warned by e-mail once. Saving refreshes the menu (GET /user/settings) at once.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Alert, Button, Checkbox, Fieldset, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconX from '@tabler/icons-react/dist/esm/icons/IconX.mjs';
import { useState, type Ref } from 'react';
import { ECO_WEIGHT_MAX } from '../../../../../shared/eco';
import { Controller, useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { accountSettingsUpdateSchema, SMS_LOW_BALANCE_MAX, type AccountSettings } from '../../../../../shared/schemas/administration';
import { errorMessage } from '../../../app/api-client';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { PageLoader } from '../../../ui/page-loader';
import { useAccountSettings, useSaveAccountSettings } from '../api/user-accounts-api';
import { TimeField } from '../../../ui/date-fields';
import { FuelPricesEditor } from './fuel-prices-editor';

type FormValues = z.input<typeof accountSettingsUpdateSchema>;
type Saved = z.output<typeof accountSettingsUpdateSchema>;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const flagFields = [
  ['realtimeMap', 'UaFlagRealtimeMap'],
  ['enable_car_booking', 'UaFlagCarBooking'],
  ['enable_rfid', 'UaFlagRfid'],
  ['EnableSafeReturnHome', 'UaFlagSafeReturnHome'],
] as const;
const ecoWeightFields = [
  ['acceleration', 'UaEcoAcceleration'],
  ['braking', 'UaEcoBraking'],
  ['cornering', 'UaEcoCornering'],
  ['overspeed', 'UaEcoOverspeed'],
  ['idle', 'UaEcoIdle'],
] as const;
const serverFields: Path<FormValues>[] = [
  ...ecoWeightFields.map(([name]) => `ecoWeights.${name}` as const),
  'enable_rfid', 'enable_car_booking', 'EnableSafeReturnHome', 'realtimeMap', 'basicOnly', 'allowUserPurposes', 'allowUserProjects',
  'allowQrCheckInWithoutAccess', 'fuelPrice', 'defaultPurposes', 'workingHours.days', 'workingHours.from', 'workingHours.to', 'smsLowBalanceThreshold',
];

/** The server's error paths of the dated prices: the list, and each row's fields. */
const fuelPriceFields = (rows: number): Path<FormValues>[] => [
  'fuelPrices',
  ...Array.from({ length: rows }, (_, i) => [`fuelPrices.${i}.fuelType`, `fuelPrices.${i}.validFrom`, `fuelPrices.${i}.price`] as const).flat(),
];
/** A NumberInput bound to a form field holding a number (0 when emptied). */
function numberFieldProps(field: { name: string; ref: Ref<HTMLInputElement>; value: number | undefined; onChange: (value: number) => void; onBlur: () => void }) {
  return {
    name: field.name,
    ref: field.ref,
    value: field.value ?? 0,
    onChange: (v: string | number) => field.onChange(typeof v === 'number' ? v : v === '' ? 0 : Number(v)),
    onBlur: field.onBlur,
  };
}

export function SettingsTab() {
  const settings = useAccountSettings();
  const { t } = useTranslation();
  if (settings.data === undefined) {
    if (!settings.isError) return <PageLoader />;
    return (
      <Alert color="red" role="alert" title={t('UaLoadFailed')} maw={640}>
        <Button variant="default" size="xs" onClick={() => void settings.refetch()} loading={settings.isFetching}>
          {t('UaTryAgain')}
        </Button>
      </Alert>
    );
  }
  return <SettingsForm settings={settings.data} />;
}

function SettingsForm({ settings }: { settings: AccountSettings }) {
  const { t } = useTranslation();
  const save = useSaveAccountSettings();
  const { basicOnlyEditable, workingHours, smsCredits, ...rest } = settings;
  const form = useForm<FormValues, unknown, Saved>({
    resolver: zodResolver(accountSettingsUpdateSchema),
    defaultValues: { ...rest, workingHours: { enabled: workingHours.enabled, days: workingHours.days, from: workingHours.from, to: workingHours.to } },
  });
  const [newPurpose, setNewPurpose] = useState('');
  const { errors } = form.formState;
  const purposes = form.watch('defaultPurposes') ?? [];
  const hasFieldError = Object.keys(errors).length > 0;

  const submit = form.handleSubmit((values) => {
    // basic-only goes along only where it may change (the server refuses a change by anyone but support).
    // The low-balance threshold too only when changed: setting it re-arms the warning e-mail.
    const body = {
      ...values,
      ...(basicOnlyEditable ? {} : { basicOnly: undefined }),
      ...(form.formState.dirtyFields.smsLowBalanceThreshold ? {} : { smsLowBalanceThreshold: undefined }),
    };
    save.mutate(body, {
      onSuccess: (saved) => {
        form.reset({ ...saved, workingHours: { enabled: saved.workingHours.enabled, days: saved.workingHours.days, from: saved.workingHours.from, to: saved.workingHours.to } });
        notifications.show({ color: 'green', message: t('SettingsSaved'), closeButtonProps: { 'aria-label': t('UaCancel') } });
      },
      onError: (error) => applyServerFieldErrors(error, [...serverFields, ...fuelPriceFields(values.fuelPrices?.length ?? 0)], form.setError),
    });
  });

  const addPurpose = () => {
    const text = newPurpose.trim();
    if (!text) return;
    form.setValue('defaultPurposes', [...purposes, text], { shouldDirty: true });
    form.clearErrors('defaultPurposes');
    setNewPurpose('');
  };
  const switchFor = (name: 'realtimeMap' | 'enable_car_booking' | 'enable_rfid' | 'EnableSafeReturnHome' | 'basicOnly' | 'allowUserPurposes' | 'allowUserProjects' | 'allowQrCheckInWithoutAccess' | 'workingHours.enabled', label: string, extra: { description?: string; disabled?: boolean } = {}) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Switch
          label={label}
          {...extra}
          name={field.name}
          ref={field.ref}
          checked={field.value === true}
          onChange={(event) => field.onChange(event.currentTarget.checked)}
          onBlur={field.onBlur}
        />
      )}
    />
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="lg" maw={720}>
        {save.isError && !hasFieldError ? (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        ) : null}
        <Fieldset legend={t('UaFeaturesTitle')}>
          <Stack gap="sm">
            {flagFields.map(([name, label]) => (
              <div key={name}>{switchFor(name, t(label))}</div>
            ))}
            {switchFor('basicOnly', t('UaFlagBasicOnly'), basicOnlyEditable ? {} : { description: t('UaFlagBasicOnlyHint'), disabled: true })}
          </Stack>
        </Fieldset>

        <Fieldset legend={t('UaTripLogTitle')}>
          <Stack gap="sm">
            {switchFor('allowUserPurposes', t('UaFlagUserPurposes'), { description: t('UaFlagUserPurposesHint') })}
            {switchFor('allowUserProjects', t('UaFlagUserProjects'))}
            {switchFor('allowQrCheckInWithoutAccess', t('UaFlagQrCheckIn'))}
            <Stack gap={6} role="group" aria-labelledby="ua-purposes">
              <Text id="ua-purposes" fw={600} size="sm" mt="sm">
                {t('UaPurposesTitle')}
              </Text>
              {purposes.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('UaPurposesEmpty')}
                </Text>
              ) : (
                <Group gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                  {purposes.map((p, i) => (
                    <Group component="li" key={`${p}-${i}`} gap={2} wrap="nowrap" pl="xs" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 16 }}>
                      <Text size="sm">{p}</Text>
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        radius="xl"
                        aria-label={t('UaPurposeRemove', { purpose: p })}
                        onClick={() => form.setValue('defaultPurposes', purposes.filter((_, j) => j !== i), { shouldDirty: true })}
                      >
                        <IconX size={14} aria-hidden />
                      </ActionIcon>
                    </Group>
                  ))}
                </Group>
              )}
              <Group gap="xs" align="flex-end" wrap="nowrap">
                <TextInput
                  label={t('UaPurposeNew')}
                  value={newPurpose}
                  maxLength={110}
                  onChange={(e) => setNewPurpose(e.currentTarget.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      addPurpose();
                    }
                  }}
                  style={{ flex: 1 }}
                />
                <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={addPurpose}>
                  {t('UaPurposeAdd')}
                </Button>
              </Group>
              {errors.defaultPurposes ? (
                <Text size="sm" c="var(--mantine-color-error)" role="alert">
                  {fieldErrorText(errors.defaultPurposes.message ?? errors.defaultPurposes.root?.message)}
                </Text>
              ) : null}
            </Stack>
          </Stack>
        </Fieldset>

        <Fieldset legend={t('UaFuelTitle')}>
          <Controller
            control={form.control}
            name="fuelPrice"
            render={({ field }) => (
              <NumberInput
                label={t('UaFuelLabel')}
                description={t('UaFuelHint')}
                name={field.name}
                ref={field.ref}
                value={field.value ?? ''}
                onChange={(v) => field.onChange(v === '' ? null : typeof v === 'number' ? v : Number(v))}
                onBlur={field.onBlur}
                min={0}
                max={1000}
                decimalScale={2}
                step={0.1}
                allowNegative={false}
                w={{ base: '100%', xs: 260 }}
                error={fieldErrorText(errors.fuelPrice?.message)}
              />
            )}
          />
          <FuelPricesEditor control={form.control} errors={errors} />
        </Fieldset>

        <Fieldset legend={t('UaEcoTitle')}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('UaEcoHint')}
            </Text>
            <Group gap="sm" align="flex-start">
              {ecoWeightFields.map(([name, label]) => (
                <Controller
                  key={name}
                  control={form.control}
                  name={`ecoWeights.${name}`}
                  render={({ field }) => (
                    <NumberInput
                      label={t(label)}
                      {...numberFieldProps(field)}
                      min={0}
                      max={ECO_WEIGHT_MAX}
                      decimalScale={2}
                      step={0.5}
                      allowNegative={false}
                      w={{ base: '100%', xs: 170 }}
                      error={fieldErrorText(errors.ecoWeights?.[name]?.message)}
                    />
                  )}
                />
              ))}
            </Group>
          </Stack>
        </Fieldset>

        <Fieldset legend={t('UaSmsTitle')}>
          <Stack gap="sm">
            <Stack gap={2}>
              <Text fw={600}>{t('UaSmsBalance', { count: smsCredits })}</Text>
              <Text size="sm" c="dimmed">
                {t('UaSmsBalanceHint')}
              </Text>
            </Stack>
            <Controller
              control={form.control}
              name="smsLowBalanceThreshold"
              render={({ field }) => (
                <NumberInput
                  label={t('UaSmsLowThreshold')}
                  description={t('UaSmsLowThresholdHint')}
                  {...numberFieldProps(field)}
                  min={0}
                  max={SMS_LOW_BALANCE_MAX}
                  allowDecimal={false}
                  allowNegative={false}
                  w={{ base: '100%', xs: 260 }}
                  error={fieldErrorText(errors.smsLowBalanceThreshold?.message)}
                />
              )}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend={t('UaWorkingHoursTitle')}>
          <Stack gap="sm">
            {switchFor('workingHours.enabled', t('UaWorkingHoursEnabled'), { description: t('UaWorkingHoursHint', { zone: workingHours.timeZone }) })}
            <Controller
              control={form.control}
              name="workingHours.days"
              render={({ field }) => (
                <Checkbox.Group
                  label={t('GeofenceDays')}
                  value={(field.value ?? []).map(String)}
                  onChange={(days) => field.onChange(days.map(Number).sort((a, b) => a - b))}
                  error={fieldErrorText(errors.workingHours?.days?.message)}
                >
                  <Group gap="xs" mt={4}>
                    {WEEKDAYS.map((day) => (
                      <Checkbox key={day} value={String(day)} label={t(`GeofenceDay${day}`)} />
                    ))}
                  </Group>
                </Checkbox.Group>
              )}
            />
            <Group gap="sm" grow maw={360}>
              <Controller
                control={form.control}
                name="workingHours.from"
                render={({ field }) => (
                  <TimeField label={t('GeofenceFrom')} required name={field.name} value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} error={fieldErrorText(errors.workingHours?.from?.message)} />
                )}
              />
              <Controller
                control={form.control}
                name="workingHours.to"
                render={({ field }) => (
                  <TimeField label={t('GeofenceTo')} required name={field.name} value={field.value ?? ''} onChange={field.onChange} onBlur={field.onBlur} error={fieldErrorText(errors.workingHours?.to?.message)} />
                )}
              />
            </Group>
          </Stack>
        </Fieldset>

        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('UaSaveSettings')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
