/**
 * One export named by the reports page's address (`?export={id}`, where a scheduled report's
 * e-mail links; a visitor who is not logged in logs in first and comes back): what it is, its
 * progress while it is made, and then the download.
 */
import { Alert, CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';
import { PageLoader } from '../../../ui/page-loader';
import { useReportJob } from '../api/reports-api';
import { reportFormatNames, reportKindKey } from '../report-texts';
import { JobProgress } from './job-progress';

export function ExportCard({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const job = useReportJob(id);
  if (job.isPending) return <PageLoader />;
  const format = job.data?.format ? reportFormatNames[job.data.format] : '';
  return (
    <Paper withBorder radius="md" p="md" maw={640} component="section" aria-labelledby="report-export-title" data-testid="report-export-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} size="h3" id="report-export-title">
            {job.data ? t(reportKindKey(job.data.kind)) : t('RptExport')}
          </Title>
          <CloseButton onClick={onClose} aria-label={t('RptClose')} />
        </Group>
        {job.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(job.error)}
          </Alert>
        ) : (
          <>
            <Text c="dimmed">
              {job.data.from} – {job.data.to}
              {format ? ` · ${format}` : ''}
            </Text>
            <JobProgress job={job.data} linkLabel={t('RptDownload', { format })} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
