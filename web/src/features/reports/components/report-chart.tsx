/**
 * A report's bar chart (`model.charts`) as inline SVG: one bar per label, stacked by series, the
 * limits as dashed lines. The figure is described by its title and a legend; the same figures are
 * available as a table (the text alternative) under it.
 */
import { Table, Text, UnstyledButton } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportChart as Chart } from '../../../../../shared/schemas/reports';
import { formatNumber, type ReportLanguage } from '../../../../../shared/reports/format';
import { chartScale, labelEvery, labelX } from '../chart-scale';
import { tripTypeColors } from '../../triplog/components/trip-type';

/** Theme palettes for the series; the trip types keep the trip log's colours. */
const PALETTE = ['brand', 'teal', 'orange', 'grape', 'cyan', 'lime', 'pink'] as const;
function seriesColor(key: string, index: number): string {
  const palette = key in tripTypeColors ? tripTypeColors[key as keyof typeof tripTypeColors] : PALETTE[index % PALETTE.length];
  return `var(--mantine-color-${palette}-6)`;
}

/** Until the figure has been measured. */
const DEFAULT_WIDTH = 640;
const HEIGHT = 220;

/** A label with its unit in brackets; a count has none. */
const withUnit = (label: string, unit: string) => (unit ? `${label} (${unit})` : label);
const PAD = { left: 52, right: 12, top: 12, bottom: 28 };

export function ReportChart({ chart, lang }: { chart: Chart; lang: ReportLanguage }) {
  const { t } = useTranslation();
  const titleId = useId();
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  // Drawn at the figure's own width, so that the labels keep their size on a phone.
  const { ref, width: measured } = useElementSize();
  const width = measured > 0 ? Math.round(measured) : DEFAULT_WIDTH;
  const { top, ticks } = chartScale(chart);
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, chart.labels.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
  const every = labelEvery(slot, Math.max(0, ...chart.labels.map((label) => label.length)));
  const decimals = top < 10 ? 1 : 0;
  const number = (value: number) => formatNumber(value, decimals, lang);
  // Counts are written whole in the table; anything else with one decimal.
  const tableDecimals = chart.series.every((s) => s.values.every(Number.isInteger)) && chart.limits.every((l) => Number.isInteger(l.value)) ? 0 : 1;

  return (
    <figure className="report-chart" aria-labelledby={titleId} ref={ref}>
      <Text component="figcaption" id={titleId} fw={700} size="sm">
        {withUnit(chart.title, chart.unit)}
      </Text>
      <ul className="report-chart-legend">
        {chart.series.map((s, i) => (
          <li key={s.key}>
            <span className="report-chart-swatch" style={{ background: seriesColor(s.key, i) }} aria-hidden />
            {s.label}
          </li>
        ))}
        {chart.limits.map((limit) => (
          <li key={limit.label}>
            <span className="report-chart-limit-swatch" aria-hidden />
            {limit.label}
          </li>
        ))}
      </ul>
      <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} className="report-chart-svg" role="img" aria-labelledby={titleId} aria-describedby={tableId}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} className="report-chart-grid" />
            <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" className="report-chart-tick">
              {number(tick)}
            </text>
          </g>
        ))}
        {chart.labels.map((label, i) => {
          let base = 0;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={`${label}-${i}`}>
              {chart.series.map((s, si) => {
                const value = Math.max(0, s.values[i] ?? 0);
                const rect = <rect key={s.key} x={x} width={barW} y={y(base + value)} height={y(base) - y(base + value)} style={{ fill: seriesColor(s.key, si) }} />;
                base += value;
                return rect;
              })}
              {i % every === 0 ? (
                <text x={labelX(x + barW / 2, label, 0, width)} y={HEIGHT - 8} textAnchor="middle" className="report-chart-tick">
                  {label}
                </text>
              ) : null}
            </g>
          );
        })}
        {chart.limits.map((limit) => (
          <line key={limit.label} x1={PAD.left} x2={width - PAD.right} y1={y(limit.value)} y2={y(limit.value)} className="report-chart-limit" />
        ))}
      </svg>
      <UnstyledButton className="report-chart-toggle" aria-expanded={showTable} aria-controls={tableId} onClick={() => setShowTable((v) => !v)}>
        {t(showTable ? 'RptChartHideTable' : 'RptChartShowTable')}
      </UnstyledButton>
      <div id={tableId} hidden={!showTable} className="report-table-scroll">
        <Table withTableBorder className="report-table">
          <caption className="report-table-caption">{chart.title}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('RptChartLabel')}</Table.Th>
              {chart.series.map((s) => (
                <Table.Th key={s.key} scope="col" ta="right">
                  {withUnit(s.label, chart.unit)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chart.labels.map((label, i) => (
              <Table.Tr key={`${label}-${i}`}>
                <Table.Th scope="row">{label}</Table.Th>
                {chart.series.map((s) => (
                  <Table.Td key={s.key} ta="right">
                    {formatNumber(s.values[i] ?? 0, tableDecimals, lang)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
          {chart.limits.length > 0 ? (
            <Table.Tfoot>
              {chart.limits.map((limit) => (
                <Table.Tr key={limit.label}>
                  <Table.Th scope="row">{limit.label}</Table.Th>
                  <Table.Td colSpan={Math.max(1, chart.series.length)} ta="right">
                    {formatNumber(limit.value, tableDecimals, lang)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tfoot>
          ) : null}
        </Table>
      </div>
    </figure>
  );
}
