/**
 * What a report is asked for: the kind (only those the caller may run), the units (the shared unit
 * picker, searched by the server; narrowed by a department or tag; none picked: all units), the
 * period (last month, this year, last year or any days, at most 12 months), the driver and the
 * trip type, and how the large summary and the summary are grouped. The browser checks the period
 * with the server's own rule; the server's 422 keys land on the same fields.
 */
import { Button, Group, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import IconReportAnalytics from '@tabler/icons-react/dist/esm/icons/IconReportAnalytics.mjs';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { REPORT_IMEIS_MAX, reportGroupings, type ReportKind, type ReportGrouping } from '../../../../../shared/schemas/reports';
import { tripTypes, type TripType } from '../../../../../shared/schemas/trips';
import { browserTimeZone } from '../../../app/api-client';
import { intlLocale } from '../../../i18n/i18n';
import { DateField } from '../../../ui/date-fields';
import { fieldErrorText } from '../../../ui/form-errors';
import { UnitPicker } from '../../units/components/unit-picker';
import { useDrivers } from '../../triplog/api/trip-api';
import { tripTypeLabelKeys } from '../../triplog/components/trip-type';
import { driverChoices, periodErrors } from '../../triplog/trip-log';
import { byKinds, periodPresets, presetOf, presetPeriod, selectedImeis, unitGroups, type FilterableUnit, type PeriodPreset, type ReportParams, type SummaryGrouping } from '../report-request';
import { groupingKeys, periodPresetKeys, reportKindKey, summaryGroupingKeys } from '../report-texts';

const tripFilterKinds: ReadonlySet<ReportKind> = new Set(['tripLog', 'summary', 'largeSummary', 'ecoDriving', 'congestion']);

export interface PickableUnit extends FilterableUnit {
  label: string;
}

interface ReportFormProps {
  kinds: readonly ReportKind[];
  units: readonly PickableUnit[];
  /** The server's field errors of the last run (message keys), by field. */
  serverErrors: Readonly<Record<string, readonly string[] | undefined>>;
  running: boolean;
  onRun: (params: ReportParams) => void;
  /** The period the form opens with (else last month). */
  initialPeriod?: { from: string; to: string } | undefined;
  /** The kind the form opens on, when the caller may run it (else the first). */
  initialKind?: ReportKind | undefined;
}

export function ReportForm({ kinds, units, serverErrors, running, onRun, initialKind, initialPeriod }: ReportFormProps) {
  const { t } = useTranslation();
  const timeZone = browserTimeZone();
  const locale = intlLocale();
  const [kind, setKind] = useState<ReportKind>(initialKind && kinds.includes(initialKind) ? initialKind : (kinds[0] as ReportKind));
  const [picked, setPicked] = useState<string[]>([]);
  const [department, setDepartment] = useState<string | null>(null);
  const [tag, setTag] = useState<string | null>(null);
  const [period, setPeriod] = useState(() => initialPeriod ?? (presetPeriod('lastMonth', Date.now(), timeZone) as { from: string; to: string }));
  const [driverId, setDriverId] = useState<string | null>(null);
  const [type, setType] = useState<TripType | null>(null);
  const [groupBy, setGroupBy] = useState<ReportGrouping>('month');
  const [by, setBy] = useState<SummaryGrouping>('unit');
  const [checked, setChecked] = useState<{ from?: string; to?: string; imeis?: string }>({});

  const preset = presetOf(period, Date.now(), timeZone);
  // The driver and the trip type pick trips; the benefit value and theft reports are not lists of trips.
  const tripFilters = tripFilterKinds.has(kind);
  const groups = useMemo(() => unitGroups(units, locale), [units, locale]);
  const names = useMemo(() => new Map(units.map((u) => [u.imei, u.label])), [units]);
  const drivers = useDrivers(units[0]?.imei ?? null);
  const driverOptions = useMemo(() => driverChoices(drivers.data ?? []), [drivers.data]);

  const choosePreset = (next: PeriodPreset) => {
    const days = presetPeriod(next, Date.now(), timeZone);
    if (days) setPeriod(days);
    setChecked({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems: { from?: string; to?: string; imeis?: string } = { ...periodErrors(period.from, period.to) };
    const imeis = selectedImeis(units, picked, department, tag);
    if (imeis !== null && imeis.length === 0) problems.imeis = 'RptNoUnitsLeft';
    // The server's own limit ("Select all matching" can pick far more).
    if (imeis !== null && imeis.length > REPORT_IMEIS_MAX) problems.imeis = 'TooManyUnits';
    setChecked(problems);
    if (problems.from || problems.to || problems.imeis) return;
    onRun({ kind, imeis, from: period.from, to: period.to, driverId: tripFilters ? driverId : null, type: tripFilters ? type : null, groupBy: kind === 'largeSummary' ? groupBy : null, by: byKinds.has(kind) ? by : null });
  };

  const error = (field: 'from' | 'to' | 'imeis') => fieldErrorText(checked[field] ?? serverErrors[field]?.[0]);

  return (
    <Paper withBorder radius="md" p="md" component="form" onSubmit={submit} noValidate aria-label={t('RptFormTitle')} className="report-form">
      <Stack gap="md">
        <div className="report-filters">
          <Select
            label={t('RptKind')}
            data={kinds.map((k) => ({ value: k, label: t(reportKindKey(k)) }))}
            value={kind}
            onChange={(value) => value && setKind(value as ReportKind)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="report-kind"
          />
          <Select
            label={t('RptPeriod')}
            data={periodPresets.map((p) => ({ value: p, label: t(periodPresetKeys[p]) }))}
            value={preset}
            onChange={(value) => value && choosePreset(value as PeriodPreset)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="report-period"
          />
          <DateField
            label={t('RptFrom')}
            value={period.from}
            onChange={(from) => {
              setPeriod((p) => ({ ...p, from }));
              setChecked({});
            }}
            error={error('from')}
            required
          />
          <DateField
            label={t('RptTo')}
            value={period.to}
            onChange={(to) => {
              setPeriod((p) => ({ ...p, to }));
              setChecked({});
            }}
            error={error('to')}
            required
          />
          {groups.departments.length > 0 ? (
            <Select
              label={t('RptDepartment')}
              placeholder={t('RptAny')}
              data={groups.departments}
              value={department}
              onChange={setDepartment}
              clearable
              searchable
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {groups.tags.length > 0 ? (
            <Select label={t('RptTag')} placeholder={t('RptAny')} data={groups.tags} value={tag} onChange={setTag} clearable searchable comboboxProps={{ withinPortal: true }} />
          ) : null}
          {tripFilters ? (
            <>
              <Select
                label={t('RptDriver')}
                placeholder={t('RptAnyDriver')}
                data={driverOptions}
                value={driverId}
                onChange={setDriverId}
                clearable
                searchable
                nothingFoundMessage={t('RptNoDriverMatches')}
                comboboxProps={{ withinPortal: true }}
              />
              <Select
                label={t('RptTripType')}
                placeholder={t('RptAnyTripType')}
                data={tripTypes.map((tt) => ({ value: tt, label: t(tripTypeLabelKeys[tt]) }))}
                value={type}
                onChange={(value) => setType(value as TripType | null)}
                clearable
                comboboxProps={{ withinPortal: true }}
              />
            </>
          ) : null}
        </div>
        <UnitPicker
          label={t('RptUnits')}
          description={t('RptUnitsHint')}
          emptyText={t('RptAllUnits')}
          value={picked}
          onChange={(imeis) => {
            setPicked(imeis);
            setChecked({});
          }}
          knownNames={names}
          selectAllMatching
          error={error('imeis')}
          testId="report-units"
        />
        {kind === 'largeSummary' || byKinds.has(kind) ? (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="report-grouping-label">
              {t('RptGrouping')}
            </Text>
            {kind === 'largeSummary' ? (
              <SegmentedControl
                aria-labelledby="report-grouping-label"
                className="report-grouping"
                data={reportGroupings.map((g) => ({ value: g, label: t(groupingKeys[g]) }))}
                value={groupBy}
                onChange={(value) => setGroupBy(value as ReportGrouping)}
              />
            ) : (
              <SegmentedControl
                aria-labelledby="report-grouping-label"
                className="report-grouping"
                data={(['unit', 'driver'] as const).map((g) => ({ value: g, label: t(summaryGroupingKeys[g]) }))}
                value={by}
                onChange={(value) => setBy(value as SummaryGrouping)}
              />
            )}
          </Stack>
        ) : null}
        <Group>
          <Button type="submit" leftSection={<IconReportAnalytics size={18} aria-hidden />} loading={running} data-testid="report-run">
            {t('RptRun')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
