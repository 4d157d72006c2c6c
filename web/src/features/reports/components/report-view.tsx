/**
 * A report's model on screen: its title and what it covers, the charts, the fleet's totals, and
 * per unit (or driver) a heading, the facts (a warning or an alert is named in words and marked
 * by an icon, not only by colour), the table with its totals row, the appendices and the notes.
 */
import { Alert, Badge, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconInfoCircle from '@tabler/icons-react/dist/esm/icons/IconInfoCircle.mjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportFact, ReportModel, ReportUnit } from '../../../../../shared/schemas/reports';
import { columnHeading, reportLanguage } from '../../../../../shared/reports/cells';
import { formatCell, type ReportLanguage } from '../../../../../shared/reports/format';
import { ReportChart } from './report-chart';
import { ReportTable } from './report-table';

// Shades whose text (dark on yellow, white on red) keeps the contrast of body text.
const toneColor = { warning: 'yellow.5', alert: 'red.9' } as const;
const toneKey = { warning: 'RptToneWarning', alert: 'RptToneAlert' } as const;

function unitHeading(unit: Pick<ReportUnit, 'name' | 'registrationNumber'>): string {
  return unit.registrationNumber && unit.registrationNumber !== unit.name ? `${unit.name} (${unit.registrationNumber})` : unit.name;
}

/** In the overview layout a unit has a section of its own only for what the one table does not show. */
function hasSectionContent(unit: ReportUnit): boolean {
  return unit.facts.length > 0 || unit.tables.length > 0 || unit.notes.length > 0;
}

function Facts({ facts, lang }: { facts: readonly ReportFact[]; lang: ReportLanguage }) {
  const { t } = useTranslation();
  if (facts.length === 0) return null;
  return (
    <dl className="report-facts">
      {facts.map((fact) => (
        <div key={fact.key} className="report-fact" data-tone={fact.tone ?? undefined}>
          <dt>
            <span>{fact.label}</span>
            {fact.tone ? (
              <Badge color={toneColor[fact.tone]} variant="filled" autoContrast radius="sm" tt="none" leftSection={<IconAlertTriangle size={14} aria-hidden />}>
                {t(toneKey[fact.tone])}
              </Badge>
            ) : null}
          </dt>
          <dd>
            {formatCell(fact.value, fact.format, lang) || '–'}
            {fact.unit && fact.value !== null && fact.value !== '' && typeof fact.value !== 'boolean' ? ` ${fact.unit}` : ''}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Notes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    <List size="sm" icon={<IconInfoCircle size={16} aria-hidden />} spacing={4} className="report-notes">
      {notes.map((note) => (
        <List.Item key={note}>{note}</List.Item>
      ))}
    </List>
  );
}

/** The fleet's totals: every column with a total, as labelled figures. */
function FleetTotals({ model, lang }: { model: ReportModel; lang: ReportLanguage }) {
  const { t } = useTranslation();
  const columns = model.columns.filter((c) => c.total && model.totals[c.key] !== undefined);
  // One unit's totals are its table's totals row already.
  if (columns.length === 0 || model.units.length < 2) return null;
  return (
    <section aria-labelledby="report-fleet-totals" className="report-fleet-totals" data-testid="report-fleet-totals">
      <Title order={3} size="h4" id="report-fleet-totals" mb="xs">
        {t('RptFleetTotals', { units: model.units.length })}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} spacing="xs" component="dl" className="report-total-grid">
        {columns.map((column) => (
          <Paper key={column.key} withBorder radius="md" p="xs" className="report-total">
            <Text component="dt" size="xs" c="dimmed" fw={600}>
              {columnHeading(column)}
            </Text>
            <Text component="dd" fw={700} size="lg">
              {formatCell(model.totals[column.key] ?? null, column.format, lang)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}

export function ReportView({ model, actions }: { model: ReportModel; actions?: ReactNode }) {
  const { t } = useTranslation();
  const lang = reportLanguage(model);
  return (
    <Stack gap="lg" className="report-view" data-testid="report-view">
      <div>
        <Title order={2} size="h3">
          {model.title}
        </Title>
        <Text c="dimmed" size="sm">
          {model.subtitle}
        </Text>
      </div>
      {actions}
      <Notes notes={model.notes} />
      {model.units.length === 0 ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />}>
          {t('RptNoUnitsInReport')}
        </Alert>
      ) : null}
      <FleetTotals model={model} lang={lang} />
      {model.charts.length > 0 ? (
        <SimpleGrid cols={{ base: 1, lg: model.charts.length > 1 ? 2 : 1 }} spacing="lg">
          {model.charts.map((chart) => (
            <ReportChart key={chart.title} chart={chart} lang={lang} />
          ))}
        </SimpleGrid>
      ) : null}
      {model.layout === 'overview' && model.columns.length > 0 ? (
        <ReportTable lang={lang} caption={model.title} columns={model.columns} rows={model.units.flatMap((unit) => unit.rows)} totals={model.totals} />
      ) : null}
      {model.units.filter((unit) => model.layout === 'units' || hasSectionContent(unit)).map((unit) => {
        const heading = unitHeading(unit);
        const headingId = `report-unit-${unit.imei || 'none'}`;
        return (
          <section key={unit.imei || heading} aria-labelledby={headingId} className="report-unit">
            <Title order={3} size="h4" id={headingId} mb="xs">
              {heading}
            </Title>
            <Stack gap="sm">
              <Facts facts={unit.facts} lang={lang} />
              {model.layout === 'units' && model.columns.length > 0 ? (
                <ReportTable lang={lang} caption={t('RptTableCaption', { name: heading })} columns={model.columns} rows={unit.rows} totals={unit.totals} />
              ) : null}
              {unit.tables.map((table) => (
                <ReportTable key={table.key} lang={lang} caption={`${table.title} – ${heading}`} columns={table.columns} rows={table.rows} totals={table.totals} />
              ))}
              <Notes notes={unit.notes} />
            </Stack>
          </section>
        );
      })}
    </Stack>
  );
}
