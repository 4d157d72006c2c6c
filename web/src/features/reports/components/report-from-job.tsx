/**
 * A report too large to answer at once (GET /reports/{kind} 202): its job's progress, asked for
 * every second, and once done its file, which is the model, drawn like any other report.
 */
import { Alert, Progress, Stack, Text } from '@mantine/core';
import IconReportAnalytics from '@tabler/icons-react/dist/esm/icons/IconReportAnalytics.mjs';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { reportModelSchema } from '../../../../../shared/schemas/reports';
import { errorMessage } from '../../../app/api-client';
import { apiDownload } from '../../../app/api-download';
import { translateMessage } from '../../../i18n/i18n';
import { PageLoader } from '../../../ui/page-loader';
import { useReportJob, type ReportJob } from '../api/reports-api';
import { jobStatusKeys } from './job-progress';
import { ReportView } from './report-view';

async function modelOf(url: string) {
  const { blob } = await apiDownload(url);
  return reportModelSchema.parse(JSON.parse(await blob.text()));
}

export function ReportFromJob({ job: started, actions }: { job: ReportJob; actions: ReactNode }) {
  const { t } = useTranslation();
  const polled = useReportJob(started.status === 'done' || started.status === 'failed' ? null : started.id);
  const job = polled.data ?? started;
  const url = job.status === 'done' ? job.url : undefined;
  const model = useQuery({ queryKey: ['report-file', job.id], queryFn: () => modelOf(url as string), enabled: url !== undefined, staleTime: Infinity });

  if (job.status === 'failed' || polled.isError || model.isError) {
    const text = job.status === 'failed' ? (job.error ? translateMessage(job.error) : t('RptJobFailed')) : errorMessage(polled.error ?? model.error);
    return (
      <Alert color="red" role="alert" title={t('RptLoadFailed')}>
        {text}
      </Alert>
    );
  }
  if (model.data) return <ReportView model={model.data} actions={actions} />;
  if (url) return <PageLoader />;
  const percent = Math.round(job.progress * 100);
  return (
    <Stack gap="xs" data-testid="report-job">
      <Alert color="blue" icon={<IconReportAnalytics size={18} aria-hidden />}>
        {t('RptLargeReportJob')}
      </Alert>
      <Text size="sm" role="status">
        {t(jobStatusKeys[job.status])} {percent} %
      </Text>
      <Progress value={percent} aria-label={t('RptLargeReportJob')} animated size="lg" />
    </Stack>
  );
}
