/**
 * Which units an ordinary user sees: a search over name, registration number and IMEI, "select all
 * shown" (a tri-state checkbox over the filtered list), and one checkbox per unit. Plain checkboxes
 * in a labelled group, so Tab and Space work and screen readers hear the count.
 */
import { Checkbox, Paper, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchesUnit, toggleAllShown, type PickableUnit } from '../user-list';

interface Props {
  units: readonly PickableUnit[];
  value: readonly string[];
  onChange: (imeis: string[]) => void;
  error?: string | undefined;
}

export function UnitAccessPicker({ units, value, onChange, error }: Props) {
  const { t } = useTranslation();
  const labelId = useId();
  const countId = useId();
  const [query, setQuery] = useState('');
  const selected = useMemo(() => new Set(value), [value]);
  const shown = useMemo(() => units.filter((u) => matchesUnit(u, query)), [units, query]);
  const shownOn = shown.filter((u) => selected.has(u.imei)).length;
  const toggle = (imei: string, on: boolean) => onChange(on ? [...value, imei] : value.filter((x) => x !== imei));

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId} aria-describedby={countId}>
      <Text id={labelId} fw={600} size="sm">
        {t('UaUnitsLabel')}
      </Text>
      {units.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('UaUnitsEmpty')}
        </Text>
      ) : (
        <>
          <TextInput
            label={t('UaUnitsSearch')}
            placeholder={t('UaUnitsSearchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            type="search"
          />
          <Checkbox
            label={t('UaUnitsSelectAll')}
            checked={shown.length > 0 && shownOn === shown.length}
            indeterminate={shownOn > 0 && shownOn < shown.length}
            disabled={shown.length === 0}
            onChange={() => onChange(toggleAllShown(value, shown.map((u) => u.imei)))}
          />
          <Paper withBorder radius="sm" p={0}>
            <ScrollArea.Autosize mah={240} type="auto" offsetScrollbars>
              {shown.length === 0 ? (
                <Text size="sm" c="dimmed" p="sm">
                  {t('UaUnitsNone')}
                </Text>
              ) : (
                <Stack gap={6} p="sm" component="ul" m={0} style={{ listStyle: 'none' }}>
                  {shown.map((u) => (
                    <li key={u.imei}>
                      <Checkbox
                        checked={selected.has(u.imei)}
                        onChange={(e) => toggle(u.imei, e.currentTarget.checked)}
                        label={u.name}
                        description={[u.registrationNumber, u.imei].filter(Boolean).join(' · ')}
                      />
                    </li>
                  ))}
                </Stack>
              )}
            </ScrollArea.Autosize>
          </Paper>
        </>
      )}
      <Text id={countId} size="xs" c="dimmed" aria-live="polite">
        {t('UaUnitsSelected', { selected: value.filter((imei) => units.some((u) => u.imei === imei)).length, total: units.length })}
      </Text>
      {error ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
