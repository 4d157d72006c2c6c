/**
 * One table of a report: the columns' labels with their units, the rows, and a totals row for the
 * columns that have one. Every value becomes text through `formatCell` (shared/reports/format.ts),
 * as in the PDF and the CSV. A table wider than the page scrolls inside its own labelled region.
 */
import { Table } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CellValue, ReportColumn } from '../../../../../shared/schemas/reports';
import { cellText, columnHeading, NUMERIC_FORMATS } from '../../../../../shared/reports/cells';
import { formatCell, type ReportLanguage } from '../../../../../shared/reports/format';

interface ReportTableProps {
  caption: string;
  columns: readonly ReportColumn[];
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>;
  totals: Readonly<Record<string, CellValue>> | null;
  /** The language the values are written in (the report's). */
  lang: ReportLanguage;
}

export function ReportTable({ caption, columns, rows, totals, lang }: ReportTableProps) {
  const { t } = useTranslation();
  const captionId = useId();
  const align = (column: ReportColumn) => (NUMERIC_FORMATS.has(column.format) ? 'right' : undefined);
  const withTotals = totals !== null && columns.some((c) => c.total);
  return (
    // Focusable so that a keyboard user can scroll it sideways; named by its caption.
    <div className="report-table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <Table striped withTableBorder highlightOnHover className="report-table" data-testid="report-table">
        <caption id={captionId} className="report-table-caption">
          {caption}
        </caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} scope="col" ta={align(column)}>
                {columnHeading(column)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>{t('RptNoRows')}</Table.Td>
            </Table.Tr>
          ) : (
            rows.map((row, index) => (
              <Table.Tr key={index}>
                {columns.map((column) => (
                  <Table.Td key={column.key} ta={align(column)}>
                    {cellText(row, column, lang)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
        {withTotals ? (
          <Table.Tfoot>
            <Table.Tr className="report-totals-row" data-testid="report-totals-row">
              {columns.map((column, index) => {
                const text = column.total ? formatCell(totals[column.key] ?? null, column.format, lang) : '';
                return index === 0 ? (
                  <Table.Th key={column.key} scope="row" ta={align(column)}>
                    {column.total ? `${t('RptTotal')}: ${text}` : t('RptTotal')}
                  </Table.Th>
                ) : (
                  <Table.Td key={column.key} ta={align(column)} fw={700}>
                    {text}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          </Table.Tfoot>
        ) : null}
      </Table>
    </div>
  );
}
