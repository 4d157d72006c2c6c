/**
 * /user/reports/exports/{id}: one export, where a scheduled report's e-mail links (a visitor who is
 * not logged in logs in first and comes back): what it is, its progress while it is made, and then
 * the download.
 */
import { Alert, Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { PageLoader } from '../../../ui/page-loader';
import { useReportJob } from '../api/reports-api';
import { JobProgress } from '../components/job-progress';
import { reportFormatNames, reportKindKey } from '../report-texts';

export function ReportExportPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const job = useReportJob(id);
  const back = (
    <Anchor component={Link} to={paths.reports} fw={600}>
      {t('RptBackToReports')}
    </Anchor>
  );
  if (job.isPending) return <PageLoader />;
  if (job.isError)
    return (
      <Stack gap="md" maw={640}>
        <Alert color="red" role="alert">
          {errorMessage(job.error)}
        </Alert>
        {back}
      </Stack>
    );
  const format = job.data.format ? reportFormatNames[job.data.format] : '';
  return (
    <Stack gap="md" maw={640}>
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Title order={2} size="h3">
            {job.data.kind ? t(reportKindKey(job.data.kind)) : t('RptExport')}
          </Title>
          {job.data.from && job.data.to ? (
            <Text c="dimmed">
              {job.data.from} – {job.data.to}
              {format ? ` · ${format}` : ''}
            </Text>
          ) : null}
          <JobProgress job={job.data} linkLabel={t('RptDownload', { format })} />
        </Stack>
      </Paper>
      {back}
    </Stack>
  );
}
