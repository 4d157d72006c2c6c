/**
 * Export buttons under a report: PDF, Excel and CSV of the same request (POST /reports/exports),
 * each followed by its job's progress and then the link to the file.
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import IconFileExport from '@tabler/icons-react/dist/esm/icons/IconFileExport.mjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportFormats, type ReportFormat } from '../../../../../shared/schemas/reports';
import { errorMessage } from '../../../app/api-client';
import { currentLanguage } from '../../../i18n/i18n';
import { useStartExport, type ReportJob } from '../api/reports-api';
import type { ReportParams } from '../report-request';
import { reportFormatNames } from '../report-texts';
import { JobProgress } from './job-progress';

export function ExportPanel({ params }: { params: ReportParams }) {
  const { t } = useTranslation();
  const start = useStartExport();
  const [jobs, setJobs] = useState<ReadonlyArray<{ format: ReportFormat; job: ReportJob }>>([]);
  const [pending, setPending] = useState<ReportFormat | null>(null);

  const run = (format: ReportFormat) => {
    setPending(format);
    start.mutate(
      { params, format, lang: currentLanguage() },
      {
        onSuccess: (job) => setJobs((before) => [{ format, job }, ...before.filter((j) => j.job.id !== job.id && j.format !== format)]),
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <Stack gap="xs" className="report-exports-inline">
      <Group gap="xs" role="group" aria-label={t('RptExport')}>
        {reportFormats.map((format) => (
          <Button key={format} variant="light" size="sm" leftSection={<IconFileExport size={16} aria-hidden />} loading={pending === format} onClick={() => run(format)}>
            {t('RptExportAs', { format: reportFormatNames[format] })}
          </Button>
        ))}
      </Group>
      {start.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(start.error)}
        </Alert>
      ) : null}
      {jobs.map(({ format, job }) => (
        <JobProgress key={job.id} job={job} linkLabel={t('RptDownload', { format: reportFormatNames[format] })} />
      ))}
    </Stack>
  );
}
