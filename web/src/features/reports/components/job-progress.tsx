/**
 * A report job (an export, or a report too large to answer at once): its progress, asked for every
 * second until it is done, then the link to the file; a failed job says so.
 */
import { Alert, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';
import { translateMessage } from '../../../i18n/i18n';
import { fileNameOf, useReportJob, type ReportJob } from '../api/reports-api';
import { DownloadButton } from './download-button';

export const jobStatusKeys: Readonly<Record<ReportJob['status'], string>> = {
  queued: 'RptJobQueued',
  running: 'RptJobRunning',
  done: 'RptJobDone',
  failed: 'RptJobFailed',
};

interface JobProgressProps {
  /** The job as it was answered; its later states are asked for here. */
  job: ReportJob;
  /** What the link is named (e.g. "Download CSV"). */
  linkLabel: string;
}

export function JobProgress({ job: started, linkLabel }: JobProgressProps) {
  const { t } = useTranslation();
  const finished = started.status === 'done' || started.status === 'failed';
  const polled = useReportJob(finished ? null : started.id);
  const job = polled.data ?? started;
  const percent = Math.round(job.progress * 100);
  return (
    <Stack gap={6} className="report-job" data-testid="report-job">
      {job.status === 'failed' ? (
        <Alert color="red" role="alert">
          {job.error ? translateMessage(job.error) : t('RptJobFailed')}
        </Alert>
      ) : job.status === 'done' && job.url ? (
        <DownloadButton url={job.url} label={linkLabel} fallbackName={fileNameOf(job)} />
      ) : (
        <>
          <Text size="sm" role="status">
            {t(jobStatusKeys[job.status])} {percent} %
          </Text>
          <Progress value={percent} aria-label={linkLabel} animated size="lg" />
        </>
      )}
      {polled.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(polled.error)}
        </Text>
      ) : null}
    </Stack>
  );
}
