/** The caller's recent exports (GET /reports/exports), newest first: what, when, its state and the link. */
import { Alert, Badge, Button, Paper, Stack, Text } from '@mantine/core';
import IconRefresh from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';
import { PageLoader } from '../../../ui/page-loader';
import { fileNameOf, useReportExports } from '../api/reports-api';
import { DownloadButton } from './download-button';
import { reportFormatNames, reportKindKey } from '../report-texts';
import { jobStatusKeys } from './job-progress';

// Shades that keep white text readable (the light variants' tinted text does not on every brand).
const statusColor = { queued: 'gray.7', running: 'blue.8', done: 'teal.9', failed: 'red.9' } as const;

export function RecentExports() {
  const { t } = useTranslation();
  const exports = useReportExports();
  if (exports.isPending) return <PageLoader />;
  if (exports.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(exports.error)}
      </Alert>
    );
  // A large report shown on screen is made as a job too (json, its model): not a file for the list.
  const files = exports.data.filter((job) => job.format !== 'json');
  return (
    <Stack gap="sm" align="flex-start">
      <Button variant="default" size="xs" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void exports.refetch()} loading={exports.isFetching}>
        {t('RptRefresh')}
      </Button>
      {files.length === 0 ? (
        <Text c="dimmed">{t('RptNoExports')}</Text>
      ) : (
        // A list rather than a table: on a phone the link stays in view beside what it is.
        <ul className="report-export-list" aria-label={t('RptRecentExports')}>
          {files.map((job) => {
            const format = job.format ? reportFormatNames[job.format] : '';
            return (
              <li key={job.id}>
                <Paper withBorder radius="md" p="sm" className="report-export-item">
                  <div>
                    <Text fw={600}>
                      {job.kind ? t(reportKindKey(job.kind)) : t('RptExport')}
                      {format ? ` · ${format}` : ''}
                    </Text>
                    {job.from && job.to ? (
                      <Text size="sm" c="dimmed">
                        {job.from} – {job.to}
                      </Text>
                    ) : null}
                  </div>
                  <Badge color={statusColor[job.status]} variant="filled" autoContrast tt="none">
                    {t(jobStatusKeys[job.status])}
                    {job.status === 'running' ? ` ${Math.round(job.progress * 100)} %` : ''}
                  </Badge>
                  {job.status === 'done' && job.url ? <DownloadButton url={job.url} label={t('RptDownload', { format })} fallbackName={fileNameOf(job)} /> : null}
                </Paper>
              </li>
            );
          })}
        </ul>
      )}
    </Stack>
  );
}
