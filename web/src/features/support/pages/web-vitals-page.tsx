/**
 * /support/web-vitals (support staff only): how fast the portal's pages are for the users whose
 * page views are sampled. Per metric (LCP, INP, CLS, TTFB), all routes and then each route
 * pattern: the number of measurements, p50, p75 and p95, and the shares rated good, needing
 * improvement and poor, over the last 24 hours or 7 days (docs/decisions/0042-web-vitals.md).
 */
import { Box, Group, Paper, Progress, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VitalSummary } from '../../../../../shared/schemas/web-vitals';
import { vitalNames, vitalThresholds, WEB_VITALS_SAMPLE_RATE, type VitalName, type WebVitalsPeriod } from '../../../../../shared/web-vitals';
import { intlLocale } from '../../../i18n/i18n';
import { LoadFailed } from '../../../ui/load-failed';
import { PageLoader } from '../../../ui/page-loader';
import { absoluteTime } from '../../../ui/relative-time';
import { useWebVitals } from '../api/support-api';
import { ResponsiveTable } from '../components/responsive-table';

const metricKeys: Readonly<Record<VitalName, string>> = {
  LCP: 'WebVitalsLcp',
  INP: 'WebVitalsInp',
  CLS: 'WebVitalsCls',
  TTFB: 'WebVitalsTtfb',
};
const hintKeys: Readonly<Record<VitalName, string>> = {
  LCP: 'WebVitalsLcpHint',
  INP: 'WebVitalsInpHint',
  CLS: 'WebVitalsClsHint',
  TTFB: 'WebVitalsTtfbHint',
};

function useFormat() {
  const locale = intlLocale();
  const seconds = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const cls = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 3 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  return {
    locale,
    count: (n: number) => whole.format(n),
    share: (part: number, total: number) => percent.format(total > 0 ? part / total : 0),
    /** Milliseconds under a second as ms, longer as s; CLS as a plain number. */
    value: (name: VitalName, v: number) => (name === 'CLS' ? cls.format(v) : v < 1000 ? `${whole.format(v)} ms` : `${seconds.format(v / 1000)} s`),
  };
}

function RatingShares({ row }: { row: VitalSummary }) {
  const { t } = useTranslation();
  const f = useFormat();
  const parts = [
    { key: 'WebVitalsGood', n: row.good, color: 'teal.7' },
    { key: 'WebVitalsNeedsImprovement', n: row.needsImprovement, color: 'yellow.5' },
    { key: 'WebVitalsPoor', n: row.poor, color: 'red.7' },
  ];
  return (
    <Stack gap={4} miw={150}>
      <Progress.Root size="sm" aria-hidden>
        {parts.map((p) => (
          <Progress.Section key={p.key} value={row.count > 0 ? (100 * p.n) / row.count : 0} color={p.color} />
        ))}
      </Progress.Root>
      <Text size="sm">{parts.map((p) => `${t(p.key)} ${f.share(p.n, row.count)}`).join(' · ')}</Text>
    </Stack>
  );
}

function RouteName({ row }: { row: VitalSummary }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" fw={row.route === null ? 700 : 400} ff={row.route === null ? undefined : 'monospace'} style={{ overflowWrap: 'anywhere' }}>
      {row.route === null ? t('WebVitalsAllRoutes') : row.route === '*' ? t('WebVitalsUnknownRoute') : row.route}
    </Text>
  );
}

/** A row on a phone: the route and its count, the percentiles side by side, then the ratings. */
function PhoneCard({ name, row }: { name: VitalName; row: VitalSummary }) {
  const { t } = useTranslation();
  const f = useFormat();
  const figures = [
    { label: 'p50', value: f.value(name, row.p50) },
    { label: 'p75', value: f.value(name, row.p75) },
    { label: 'p95', value: f.value(name, row.p95) },
  ];
  return (
    <Stack gap={6}>
      <Group justify="space-between" align="baseline" wrap="nowrap" gap="xs">
        <RouteName row={row} />
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('WebVitalsCount')}: {f.count(row.count)}
        </Text>
      </Group>
      <SimpleGrid cols={3} spacing="xs">
        {figures.map((x) => (
          <Box key={x.label}>
            <Text span size="xs" c="dimmed" display="block">
              {x.label}
            </Text>
            <Text span size="sm" display="block">
              {x.value}
            </Text>
          </Box>
        ))}
      </SimpleGrid>
      <RatingShares row={row} />
    </Stack>
  );
}

function MetricSection({ name, rows }: { name: VitalName; rows: VitalSummary[] }) {
  const { t } = useTranslation();
  const f = useFormat();
  const id = `web-vitals-${name.toLowerCase()}`;
  const all = rows.find((r) => r.route === null);
  const { good, poor } = vitalThresholds[name];
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={id}>
            {t(metricKeys[name])}
          </Title>
          <Text size="sm" c="dimmed">
            {t(hintKeys[name])} {t('WebVitalsThresholds', { good: f.value(name, good), poor: f.value(name, poor) })}
          </Text>
        </div>
        {!all || all.count === 0 ? (
          <Text>{t('WebVitalsNone')}</Text>
        ) : (
          <ResponsiveTable
            caption={t(metricKeys[name])}
            rows={rows}
            rowKey={(r) => r.route ?? ''}
            card={(r) => <PhoneCard name={name} row={r} />}
            columns={[
              { label: t('WebVitalsRoute'), cell: (r) => <RouteName row={r} /> },
              { label: t('WebVitalsCount'), cell: (r) => <Text size="sm">{f.count(r.count)}</Text> },
              { label: 'p50', cell: (r) => <Text size="sm">{f.value(name, r.p50)}</Text> },
              { label: 'p75', cell: (r) => <Text size="sm">{f.value(name, r.p75)}</Text> },
              { label: 'p95', cell: (r) => <Text size="sm">{f.value(name, r.p95)}</Text> },
              { label: t('WebVitalsRatings'), cell: (r) => <RatingShares row={r} /> },
            ]}
          />
        )}
      </Stack>
    </Paper>
  );
}

export function WebVitalsPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const [period, setPeriod] = useState<WebVitalsPeriod>('24h');
  const report = useWebVitals(period);
  return (
    <Stack gap="md" maw={1100}>
      <Stack gap="xs">
        <Text>{t('WebVitalsIntro', { share: f.share(WEB_VITALS_SAMPLE_RATE, 1) })}</Text>
        <Group gap="sm" align="center">
          <Text id="web-vitals-period" size="sm" fw={600}>
            {t('WebVitalsPeriod')}
          </Text>
          <SegmentedControl
            aria-labelledby="web-vitals-period"
            value={period}
            onChange={(v) => setPeriod(v as WebVitalsPeriod)}
            data={[
              { value: '24h', label: t('WebVitalsLast24h') },
              { value: '7d', label: t('WebVitalsLast7d') },
            ]}
          />
        </Group>
        {report.data ? (
          <Text size="sm" c="dimmed" role="status">
            {t('WebVitalsShown', { from: absoluteTime(report.data.from, f.locale), to: absoluteTime(report.data.to, f.locale) })}
          </Text>
        ) : null}
      </Stack>
      {report.isError ? <LoadFailed title={t('WebVitalsLoadFailed')} error={report.error} onRetry={() => void report.refetch()} retrying={report.isFetching} /> : null}
      {report.isPending ? <PageLoader /> : null}
      {report.data ? vitalNames.map((name) => <MetricSection key={name} name={name} rows={report.data.summaries.filter((s) => s.name === name)} />) : null}
    </Stack>
  );
}
