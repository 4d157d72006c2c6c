/** The caller's recent exports (GET /reports/exports), newest first: what, when, its state and the link. */
import { Alert, Badge, Button, Stack, Table, Text } from '@mantine/core';
import IconRefresh from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../app/api-client';
import { PageLoader } from '../../../ui/page-loader';
import { fileNameOf, useReportExports } from '../api/reports-api';
import { DownloadButton } from './download-button';
import { reportFormatNames, reportKindKey } from '../report-texts';
import { jobStatusKeys } from './job-progress';

const statusColor = { queued: 'gray', running: 'blue', done: 'teal', failed: 'red' } as const;

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
  return (
    <Stack gap="sm" align="flex-start">
      <Button variant="default" size="xs" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void exports.refetch()} loading={exports.isFetching}>
        {t('RptRefresh')}
      </Button>
      {exports.data.length === 0 ? (
        <Text c="dimmed">{t('RptNoExports')}</Text>
      ) : (
        <div className="report-table-scroll" role="region" aria-labelledby="report-exports-caption" tabIndex={0}>
          <Table striped withTableBorder className="report-table">
            <caption id="report-exports-caption" className="report-table-caption">
              {t('RptRecentExports')}
            </caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('RptKind')}</Table.Th>
                <Table.Th scope="col">{t('RptPeriod')}</Table.Th>
                <Table.Th scope="col">{t('RptFormat')}</Table.Th>
                <Table.Th scope="col">{t('RptStatus')}</Table.Th>
                <Table.Th scope="col">{t('RptFile')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {exports.data.map((job) => (
                <Table.Tr key={job.id}>
                  <Table.Td>{job.kind ? t(reportKindKey(job.kind)) : '–'}</Table.Td>
                  <Table.Td>{job.from && job.to ? `${job.from} – ${job.to}` : '–'}</Table.Td>
                  <Table.Td>{job.format ? reportFormatNames[job.format] : '–'}</Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[job.status]} variant="light" tt="none">
                      {t(jobStatusKeys[job.status])}
                      {job.status === 'running' ? ` ${Math.round(job.progress * 100)} %` : ''}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {job.status === 'done' && job.url ? (
                      <DownloadButton url={job.url} label={t('RptDownload', { format: job.format ? reportFormatNames[job.format] : '' })} fallbackName={fileNameOf(job)} />
                    ) : (
                      '–'
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Stack>
  );
}
