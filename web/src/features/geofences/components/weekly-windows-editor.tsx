/**
 * Weekly windows of local time (shared/schemas/schedule.ts): a geofence's deactivation days and
 * times, a place rule's schedule. Each window is a fieldset of its weekdays (Mon..Sun checkboxes)
 * and a from and to time; a window that ends before it starts runs past midnight.
 */
import { ActionIcon, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_WEEKLY_WINDOWS, type WeeklyWindow } from '../../../../../shared/schemas/schedule';
import { TimeField } from '../../../ui/date-fields';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** Translated errors of one window's fields. */
export interface WindowErrors {
  days?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface WeeklyWindowsEditorProps {
  value: readonly WeeklyWindow[];
  onChange: (windows: WeeklyWindow[]) => void;
  /** The group's heading. */
  label: string;
  hint?: string;
  /** What an empty list means, e.g. "always armed". */
  emptyText?: string;
  errors?: ReadonlyArray<WindowErrors | undefined>;
  /** An error of the whole list (too many windows). */
  error?: string | undefined;
  /** A new window: weekdays 08:00 to 17:00 unless given. */
  template?: WeeklyWindow;
}

export function WeeklyWindowsEditor({ value, onChange, label, hint, emptyText, errors, error, template }: WeeklyWindowsEditorProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const change = (index: number, next: Partial<WeeklyWindow>) => onChange(value.map((w, i) => (i === index ? { ...w, ...next } : w)));
  const add = () => onChange([...value, template ?? { days: [1, 2, 3, 4, 5], from: '08:00', to: '17:00' }]);
  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId} className="geo-windows">
      <Text id={labelId} fw={600} size="sm">
        {label}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
      {value.length === 0 && emptyText ? (
        <Text size="sm" c="dimmed">
          {emptyText}
        </Text>
      ) : null}
      {value.map((w, i) => {
        const number = i + 1;
        const err = errors?.[i];
        return (
          <div key={i} role="group" aria-labelledby={`${labelId}-${i}`} className="geo-window-row" data-testid="weekly-window">
            <Group justify="space-between" wrap="nowrap">
              <Text id={`${labelId}-${i}`} size="sm" fw={500}>
                {t('GeofenceWindow', { number })}
              </Text>
              <ActionIcon variant="subtle" color="red" onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={t('GeofenceRemoveWindow', { number })}>
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
            <Checkbox.Group
              label={t('GeofenceDays')}
              value={w.days.map(String)}
              onChange={(days) => change(i, { days: days.map(Number).sort((a, b) => a - b) })}
              error={err?.days}
            >
              <Group gap="xs" mt={4}>
                {WEEKDAYS.map((day) => (
                  <Checkbox key={day} value={String(day)} label={t(`GeofenceDay${day}`)} />
                ))}
              </Group>
            </Checkbox.Group>
            <Group gap="sm" grow>
              <TimeField label={t('GeofenceFrom')} value={w.from} onChange={(from) => change(i, { from })} error={err?.from} required />
              <TimeField label={t('GeofenceTo')} value={w.to} onChange={(to) => change(i, { to })} error={err?.to} required />
            </Group>
          </div>
        );
      })}
      {error ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {error}
        </Text>
      ) : null}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={16} aria-hidden />} onClick={add} disabled={value.length >= MAX_WEEKLY_WINDOWS}>
          {t('GeofenceAddWindow')}
        </Button>
      </Group>
    </Stack>
  );
}
