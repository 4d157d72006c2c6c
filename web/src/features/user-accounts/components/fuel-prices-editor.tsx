/**
 * The dated fuel prices of the Settings tab: one row per price (fuel type, the local day it holds
 * from, SEK per litre, kWh or kg), added and removed in place. Each field is labelled for screen
 * readers, the remove button names the price it removes, and the rows wrap on a phone.
 */
import { ActionIcon, Button, Group, NativeSelect, NumberInput, Stack, Text } from '@mantine/core';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconX from '@tabler/icons-react/dist/esm/icons/IconX.mjs';
import { Controller, useFieldArray, useWatch, type Control, type FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { accountSettingsUpdateSchema } from '../../../../../shared/schemas/administration';
import { FUEL_PRICE_MAX, FUEL_QUANTITY, fuelTypes, type FuelType } from '../../../../../shared/schemas/fuel';
import { DateField } from '../../../ui/date-fields';
import { fieldErrorText } from '../../../ui/form-errors';

type FormValues = z.input<typeof accountSettingsUpdateSchema>;
type Saved = z.output<typeof accountSettingsUpdateSchema>;

const today = (): string => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export function FuelPricesEditor({ control, errors }: { control: Control<FormValues, unknown, Saved>; errors: FieldErrors<FormValues> }) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: 'fuelPrices' });
  const rows = useWatch({ control, name: 'fuelPrices' }) ?? [];
  const rowErrors = errors.fuelPrices;
  const listError = rowErrors?.message ?? rowErrors?.root?.message;
  return (
    <Stack gap="xs" role="group" aria-labelledby="ua-fuel-prices">
      <Text id="ua-fuel-prices" fw={600} size="sm" mt="sm">
        {t('UaFuelPricesTitle')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('UaFuelPricesHint')}
      </Text>
      {fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('UaFuelPricesEmpty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {fields.map((row, i) => {
            const error = rowErrors?.[i];
            return (
              <Group component="li" key={row.id} gap="xs" align="flex-start" wrap="wrap" data-testid="fuel-price-row">
                <Controller
                  control={control}
                  name={`fuelPrices.${i}.fuelType`}
                  render={({ field }) => (
                    <NativeSelect
                      label={t('UaFuelPriceType')}
                      data={fuelTypes.map((f) => ({ value: f, label: t(`UaFuelPriceType_${f}`) }))}
                      name={field.name}
                      ref={field.ref}
                      value={field.value}
                      onChange={(e) => field.onChange(e.currentTarget.value as FuelType)}
                      onBlur={field.onBlur}
                      error={fieldErrorText(error?.fuelType?.message)}
                      w={{ base: '100%', xs: 200 }}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`fuelPrices.${i}.validFrom`}
                  render={({ field }) => (
                    <DateField
                      label={t('UaFuelPriceFrom')}
                      required
                      name={field.name}
                      value={field.value ?? ''}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={fieldErrorText(error?.validFrom?.message)}
                      w={{ base: '100%', xs: 170 }}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`fuelPrices.${i}.price`}
                  render={({ field }) => {
                    const quantity = t(`UaFuelQuantity_${FUEL_QUANTITY[rows[i]?.fuelType ?? 'petrol']}`);
                    return (
                      <NumberInput
                        label={t('UaFuelPricePrice', { quantity })}
                        required
                        name={field.name}
                        ref={field.ref}
                        value={Number.isFinite(field.value) ? field.value : ''}
                        onChange={(v) => field.onChange(v === '' ? Number.NaN : typeof v === 'number' ? v : Number(v))}
                        onBlur={field.onBlur}
                        min={0}
                        max={FUEL_PRICE_MAX}
                        decimalScale={2}
                        step={0.1}
                        allowNegative={false}
                        error={fieldErrorText(error?.price?.message)}
                        w={{ base: 'calc(100% - 44px)', xs: 190 }}
                      />
                    );
                  }}
                />
                <ActionIcon variant="subtle" size="lg" mt={{ base: 0, xs: 28 }} aria-label={t('UaFuelPriceRemove', { n: i + 1 })} onClick={() => remove(i)}>
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            );
          })}
        </Stack>
      )}
      <Group>
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => append({ fuelType: 'diesel', validFrom: today(), price: Number.NaN })}>
          {t('UaFuelPriceAdd')}
        </Button>
      </Group>
      {listError ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {fieldErrorText(listError)}
        </Text>
      ) : null}
    </Stack>
  );
}
