/**
 * Scheduled reports (GET/POST/PUT/DELETE /reports/schedules): the list, and a form to add or
 * change one: kind, units, format, how often, recipients, language and whether an empty report is
 * skipped. The server's 422 keys land on the form's fields.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NativeSelect, SegmentedControl, Select, Paper, Stack, Switch, TagsInput, Text } from '@mantine/core';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { reportFormats, type ReportKind } from '../../../../../shared/schemas/reports';
import { errorMessage } from '../../../app/api-client';
import { currentLanguage, languageOptions } from '../../../i18n/i18n';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { PageLoader } from '../../../ui/page-loader';
import { scheduleEvery } from '../../../../../shared/schemas/report-exports';
import { useDeleteSchedule, useReportSchedules, useSaveSchedule, type ReportSchedule } from '../api/reports-api';
import { everyKeys, reportFormatNames, reportKindKey } from '../report-texts';
import { UnitPicker } from '../../units/components/unit-picker';
import { scheduleBody, scheduleFormSchema, scheduleFormValues, type ScheduleFormValues } from '../schedule-form';

interface SchedulesPanelProps {
  kinds: readonly ReportKind[];
  /** Names of the units by IMEI, for the schedules' unit lists and the picker's chips. */
  unitNames: ReadonlyMap<string, string>;
  announce: (text: string) => void;
}

export function SchedulesPanel({ kinds, unitNames, announce }: SchedulesPanelProps) {
  const { t } = useTranslation();
  const schedules = useReportSchedules();
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);

  const unitsText = (schedule: ReportSchedule) => {
    const imeis = scheduleFormValues(schedule).imeis;
    return imeis.length === 0 ? t('RptAllUnits') : imeis.map((imei) => unitNames.get(imei) ?? imei).join(', ');
  };

  return (
    <Stack gap="sm" align="stretch">
      <Group>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          {t('RptAddSchedule')}
        </Button>
      </Group>
      {schedules.isPending ? (
        <PageLoader />
      ) : schedules.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(schedules.error)}
        </Alert>
      ) : schedules.data.length === 0 ? (
        <Text c="dimmed">{t('RptNoSchedules')}</Text>
      ) : (
        <ul className="report-export-list" aria-label={t('RptSchedules')}>
          {schedules.data.map((schedule) => {
            // The kind and how often, so that two schedules' buttons have names of their own.
            const name = `${t(reportKindKey(schedule.kind))}, ${t(everyKeys[schedule.every])}`;
            return (
              <li key={schedule.id}>
                <Paper withBorder radius="md" p="sm" className="report-export-item">
                  <div>
                    <Text fw={600}>
                      {t(reportKindKey(schedule.kind))} · {reportFormatNames[schedule.format]} · {t(everyKeys[schedule.every])}
                    </Text>
                    <Text size="sm">
                      {t('RptUnits')}: {unitsText(schedule)}
                    </Text>
                    <Text size="sm" c="dimmed" className="report-recipients">
                      {t('RptRecipients')}: {schedule.recipients.join(', ')}
                    </Text>
                  </div>
                  <Group gap={4} wrap="nowrap">
                    <Button size="xs" variant="subtle" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setEditing(schedule)} aria-label={t('RptEditScheduleOf', { name })}>
                      {t('RptEdit')}
                    </Button>
                    <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setDeleting(schedule)} aria-label={t('RptDeleteScheduleOf', { name })}>
                      {t('RptDelete')}
                    </Button>
                  </Group>
                </Paper>
              </li>
            );
          })}
        </ul>
      )}

      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={t(editing === 'new' ? 'RptAddSchedule' : 'RptEditSchedule')} size="lg" closeButtonProps={{ 'aria-label': t('RptCancel') }}>
        {editing !== null ? (
          <ScheduleForm
            key={editing === 'new' ? 'new' : editing.id}
            schedule={editing}
            kinds={kinds}
            unitNames={unitNames}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              announce(t('RptScheduleSaved'));
            }}
          />
        ) : null}
      </Modal>

      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('RptDeleteSchedule')}
        message={deleting ? t('RptDeleteScheduleConfirm', { name: t(reportKindKey(deleting.kind)), every: t(everyKeys[deleting.every]) }) : ''}
        confirmLabel={t('RptDelete')}
        cancelLabel={t('RptCancel')}
        closeLabel={t('RptCancel')}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              setDeleting(null);
              announce(t('RptScheduleDeleted'));
            },
          })
        }
      />
    </Stack>
  );
}

const fields = ['kind', 'imeis', 'format', 'every', 'recipients', 'lang', 'skipEmpty'] as const;

function ScheduleForm({
  schedule,
  kinds,
  unitNames,
  onClose,
  onSaved,
}: {
  schedule: ReportSchedule | 'new';
  kinds: readonly ReportKind[];
  unitNames: ReadonlyMap<string, string>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveSchedule();
  const form = useForm<ScheduleFormValues, unknown, z.output<typeof scheduleFormSchema>>({
    resolver: zodResolver(scheduleFormSchema),
    defaultValues:
      schedule === 'new'
        ? { kind: kinds[0] ?? 'tripLog', imeis: [], format: 'pdf', every: 'month', recipients: [], lang: currentLanguage(), skipEmpty: true }
        : scheduleFormValues(schedule),
  });
  const { errors } = form.formState;
  const hasFieldError = fields.some((f) => errors[f]);
  const submit = form.handleSubmit((values) =>
    save.mutate(
      { id: schedule === 'new' ? null : schedule.id, body: scheduleBody(values) },
      { onSuccess: onSaved, onError: (error) => applyServerFieldErrors(error, fields, form.setError) },
    ),
  );
  const kindChoices = kinds.map((kind) => ({ value: kind, label: t(reportKindKey(kind)) }));

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {save.isError && !hasFieldError ? (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        ) : null}
        <NativeSelect label={t('RptKind')} data={kindChoices} {...form.register('kind')} error={fieldErrorText(errors.kind?.message)} data-autofocus />
        <Controller
          control={form.control}
          name="imeis"
          render={({ field }) => (
            <UnitPicker
              label={t('RptUnits')}
              description={t('RptUnitsHint')}
              emptyText={t('RptAllUnits')}
              value={field.value}
              onChange={field.onChange}
              knownNames={unitNames}
              selectAllMatching
              error={fieldErrorText(errors.imeis?.message)}
              testId="schedule-units"
            />
          )}
        />
        <Controller
          control={form.control}
          name="format"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="schedule-format-label">
                {t('RptFormat')}
              </Text>
              <SegmentedControl
                aria-labelledby="schedule-format-label"
                data={reportFormats.map((f) => ({ value: f, label: reportFormatNames[f] }))}
                value={field.value}
                onChange={(value) => field.onChange(value)}
              />
            </Stack>
          )}
        />
        <Controller
          control={form.control}
          name="every"
          render={({ field }) => (
            <Select
              label={t('RptEvery')}
              data={scheduleEvery.map((e) => ({ value: e, label: t(everyKeys[e]) }))}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              error={fieldErrorText(errors.every?.message)}
            />
          )}
        />
        <Controller
          control={form.control}
          name="recipients"
          render={({ field }) => (
            <TagsInput
              label={t('RptRecipients')}
              description={t('RptRecipientsHint')}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              splitChars={[',', ' ', ';']}
              acceptValueOnBlur
              required
              error={fieldErrorText(errors.recipients?.message ?? errors.recipients?.find?.((e) => e?.message)?.message)}
            />
          )}
        />
        <NativeSelect label={t('RptLanguage')} data={languageOptions.map((o) => ({ value: o.value, label: o.label }))} {...form.register('lang')} error={fieldErrorText(errors.lang?.message)} />
        <Controller
          control={form.control}
          name="skipEmpty"
          render={({ field }) => (
            <Switch
              label={t('RptSkipEmpty')}
              description={t('RptSkipEmptyHint')}
              name={field.name}
              ref={field.ref}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
            />
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('RptCancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('RptSave')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
