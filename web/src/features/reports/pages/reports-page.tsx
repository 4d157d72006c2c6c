/**
 * /user/create-triplog/reports: the reports of the trip log area. A report is asked for with the
 * form and shown from the model the server answers (the same model the PDF, Excel and CSV exports
 * render); a request too large to answer at once becomes a job whose progress is shown. Exports
 * of the shown report, the recent exports and the scheduled reports are on the same page.
 * /user/create-triplog/congestionreportnew is the same page opened on the congestion tax report.
 */
import '../reports.css';
import { Stack, Tabs, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconCalendarRepeat from '@tabler/icons-react/dist/esm/icons/IconCalendarRepeat.mjs';
import IconFileDownload from '@tabler/icons-react/dist/esm/icons/IconFileDownload.mjs';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import IconReportAnalytics from '@tabler/icons-react/dist/esm/icons/IconReportAnalytics.mjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../app/api-client';
import { useLoadedSettings } from '../../../app/guards';
import { MessageState } from '../../../ui/message-state';
import { LoadFailed } from '../../../ui/load-failed';
import { PageLoader } from '../../../ui/page-loader';
import { useUnits } from '../../units/api/units';
import { useReport } from '../api/reports-api';
import { ExportCard } from '../components/export-card';
import { ExportPanel } from '../components/export-panel';
import { ReportFromJob } from '../components/report-from-job';
import { RecentExports } from '../components/recent-exports';
import { ReportForm, type PickableUnit } from '../components/report-form';
import { ReportView } from '../components/report-view';
import { SchedulesPanel } from '../components/schedules-panel';
import { offeredReportKinds } from '../offered-kinds';
import type { ReportKind } from '../../../../../shared/schemas/reports';
import { linkedReport, type ReportParams } from '../report-request';

export function ReportsPage({ kind }: { kind?: ReportKind | undefined }) {
  const { t } = useTranslation();
  const settings = useLoadedSettings();
  const kinds = offeredReportKinds(settings);
  const units = useUnits();
  // A scheduled report's e-mail links here naming its export; the fleet overview names a report and its period, shown at once.
  const [search, setSearch] = useSearchParams();
  const [linked] = useState(() => linkedReport(search, kinds));
  const [params, setParams] = useState<ReportParams | null>(linked);
  const [tab, setTab] = useState<string | null>('report');
  const [spoken, setSpoken] = useState('');
  const report = useReport(params);
  const exportId = search.get('export');
  // A screen reader hears that the report is there (the page does not move focus away from the form).
  const shown = report.data && 'model' in report.data ? `${report.data.model.title}. ${report.data.model.subtitle}` : null;
  const updatedAt = report.dataUpdatedAt;
  useEffect(() => {
    if (shown) setSpoken((before) => (before === shown ? `${shown}\u00a0` : shown));
  }, [shown, updatedAt]);

  const pickable = useMemo<PickableUnit[]>(
    () =>
      (units.data ?? []).map((u) => ({
        imei: u.imei,
        label: u.registrationNumber && u.registrationNumber !== u.name ? `${u.name} (${u.registrationNumber})` : u.name,
        departments: u.departments,
        tags: u.tags,
      })),
    [units.data],
  );

  const unitNames = useMemo(() => new Map(pickable.map((u) => [u.imei, u.label])), [pickable]);

  const announce = useCallback(
    (text: string) => {
      setSpoken((before) => (before === text ? `${text}\u00a0` : text));
      notifications.show({ color: 'green', message: text, withBorder: true, closeButtonProps: { 'aria-label': t('RptClose') } });
    },
    [t],
  );

  // The same request again asks again (trips may have changed since); another one is a new query.
  const run = (next: ReportParams) => {
    if (params && JSON.stringify(next) === JSON.stringify(params)) void report.refetch();
    else setParams(next);
  };

  if (kinds.length === 0) {
    return (
      <MessageState icon={<IconLock size={30} stroke={1.6} />} title={t('NoAccessTitle')} color="red">
        {t('RptNoReportsAllowed')}
      </MessageState>
    );
  }
  if (units.data === undefined) {
    if (!units.isError) return <PageLoader />;
    return <LoadFailed title={t('RptUnitsLoadFailed')} error={units.error} onRetry={() => void units.refetch()} retrying={units.isFetching} />;
  }

  const serverErrors = report.error instanceof ApiError && report.error.status === 422 ? report.error.fieldErrors : {};
  const fieldFailure = Object.keys(serverErrors).some((field) => ['from', 'to', 'imeis'].includes(field));
  const answer = report.data;

  return (
    <Stack gap="lg" className="reports-page">
      <div role="status" aria-live="polite">
        <VisuallyHidden>{spoken}</VisuallyHidden>
      </div>
      {exportId ? (
        <ExportCard
          key={exportId}
          id={exportId}
          onClose={() =>
            setSearch(
              (current) => {
                const next = new URLSearchParams(current);
                next.delete('export');
                return next;
              },
              { replace: true },
            )
          }
        />
      ) : null}
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="report" leftSection={<IconReportAnalytics size={16} aria-hidden />}>
            {t('RptTabReport')}
          </Tabs.Tab>
          <Tabs.Tab value="exports" leftSection={<IconFileDownload size={16} aria-hidden />}>
            {t('RptRecentExports')}
          </Tabs.Tab>
          <Tabs.Tab value="schedules" leftSection={<IconCalendarRepeat size={16} aria-hidden />}>
            {t('RptSchedules')}
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="report" pt="md">
          <Stack gap="lg">
            <ReportForm
              kinds={kinds}
              initialKind={linked?.kind ?? kind}
              initialPeriod={linked ? { from: linked.from, to: linked.to } : undefined}
              units={pickable}
              serverErrors={serverErrors}
              running={report.isFetching}
              onRun={run}
            />
            {params === null ? null : report.isPending ? (
              <PageLoader />
            ) : report.isError ? (
              fieldFailure ? null : (
                <LoadFailed title={t('RptLoadFailed')} error={report.error} onRetry={() => void report.refetch()} retrying={report.isFetching} />
              )
            ) : answer && 'job' in answer ? (
              <ReportFromJob key={answer.job.id} job={answer.job} actions={<ExportPanel params={params} />} />
            ) : answer ? (
              <ReportView model={answer.model} actions={<ExportPanel params={params} />} />
            ) : null}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="exports" pt="md">
          <RecentExports />
        </Tabs.Panel>
        <Tabs.Panel value="schedules" pt="md">
          <SchedulesPanel kinds={kinds} unitNames={unitNames} announce={announce} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
