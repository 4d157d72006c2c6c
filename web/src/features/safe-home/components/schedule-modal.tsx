/**
 * The alert schedule of a unit (spec sections 2, 3 and 9): a time per weekday, Monday first (18:00
 * by default, a day can be switched off), every 1, 2 or 3 weeks from a start date. Sent with the
 * browser's time zone: the times are the browser's local times.
 */
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SafeHomeItem } from '../../../../../shared/schemas/safe-home';
import { ApiError, browserTimeZone, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { intlLocale } from '../../../i18n/i18n';
import { parseLanguage } from '../../../app/preferences';
import { useSaveSchedule } from '../api/safe-home-api';
import { entriesOf, scheduleRows, todayText, weekdayName, type DayRow } from '../safe-home-list';
import { DateField, TimeField } from '../../../ui/date-fields';

interface Props {
  item: SafeHomeItem | null;
  onClose: () => void;
  onSaved: (key: string) => void;
}

export function ScheduleModal({ item, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} title={item ? t('SafeHomeScheduleTitle', { name: item.name }) : ''} size="lg" closeButtonProps={{ 'aria-label': t('Cancel') }}>
      {item ? <ScheduleForm key={item.imei} item={item} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function ScheduleForm({ item, onClose, onSaved }: { item: SafeHomeItem; onClose: () => void; onSaved: (key: string) => void }) {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(parseLanguage(i18n.language) ?? 'en');
  const zone = browserTimeZone();
  const [rows, setRows] = useState<DayRow[]>(() => scheduleRows(item.schedule));
  const [frequency, setFrequency] = useState<string>(String(item.frequency ?? 1));
  const [startDate, setStartDate] = useState(item.start_date ?? todayText());
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = useSaveSchedule();
  const change = (day: number, next: Partial<DayRow>) => setRows((list) => list.map((r) => (r.day === day ? { ...r, ...next } : r)));

  const submit = () => {
    const schedule = entriesOf(rows);
    const next: Record<string, string | undefined> = {};
    if (schedule.length === 0) next['schedule'] = 'SafeHomeScheduleRequired';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate)) next['start_date'] = 'SafeHomeInvalidStartDate';
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    save.mutate(
      { imei: item.imei, body: { schedule, frequency: Number(frequency), start_date: startDate, time_zone: zone } },
      {
        onSuccess: () => onSaved('AlertScheduleUpdated'),
        onError: (error) => {
          if (error instanceof ApiError) {
            const fe = error.fieldErrors;
            const first = (prefix: string) => Object.entries(fe).find(([k]) => k === prefix || k.startsWith(`${prefix}.`))?.[1]?.[0];
            setErrors({ schedule: first('schedule'), frequency: fe['frequency']?.[0], start_date: fe['start_date']?.[0], time_zone: fe['time_zone']?.[0] });
          }
        },
      },
    );
  };

  const general = save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length);
  return (
    <Stack gap="sm">
      <Text size="sm">{t('SafeHomeScheduleIntro', { zone })}</Text>
      <Stack gap={6} role="group" aria-label={t('SafeHomeColSchedule')}>
        {rows.map((row) => {
          const name = weekdayName(row.day, locale, 'long');
          return (
            <Group key={row.day} gap="sm" wrap="nowrap" align="center">
              <Checkbox
                label={name}
                checked={row.on}
                onChange={(e) => change(row.day, { on: e.currentTarget.checked })}
                style={{ flex: '1 1 8rem' }}
                data-testid={`safe-home-day-${row.day}`}
              />
              <TimeField
                aria-label={t('SafeHomeTimeFor', { day: name })}
                value={row.time}
                disabled={!row.on}
                required={row.on}
                onChange={(time) => change(row.day, { time })}
                w={130}
                data-testid={`safe-home-time-${row.day}`}
              />
            </Group>
          );
        })}
      </Stack>
      {errors['schedule'] ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {fieldErrorText(errors['schedule'])}
        </Text>
      ) : null}
      <Group gap="sm" align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
        <Select
          label={t('SafeHomeFrequencyLabel')}
          data={[
            { value: '1', label: t('SafeHomeEveryWeek') },
            { value: '2', label: t('SafeHomeEveryNWeeks', { count: 2 }) },
            { value: '3', label: t('SafeHomeEveryNWeeks', { count: 3 }) },
          ]}
          value={frequency}
          onChange={(v) => setFrequency(v ?? '1')}
          allowDeselect={false}
          error={fieldErrorText(errors['frequency'])}
          miw={180}
        />
        <DateField
          label={t('SafeHomeStartDateLabel')}
          value={startDate}
          onChange={setStartDate}
          error={fieldErrorText(errors['start_date'])}
          required
          miw={180}
        />
      </Group>
      {errors['time_zone'] ? <Alert color="red" role="alert">{fieldErrorText(errors['time_zone'])}</Alert> : null}
      {general ? (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          {t('Save')}
        </Button>
      </Group>
    </Stack>
  );
}
