/**
 * Reports (docs/api.md Reports, docs/decisions/0034-reports.md): one typed model per report that
 * the screen, the PDF, the XLSX and the CSV all render, so their figures are equal by
 * construction.
 *
 * A model is the contract's answer (`kind, from, to, units[{ imei, name, registrationNumber, rows,
 * totals }], totals`) plus how to show it: the columns of `rows` (label in the caller's language,
 * format, unit), facts shown above a unit's table, further tables (a trip log's change appendix,
 * a theft report's events) and notes. Rows and totals hold raw values (km, seconds, ISO times with
 * offset); `formatCell` (shared/reports/format.ts) is the one way they become text.
 */
import { z } from 'zod';
import { profileReports } from './profile-features';
import { languages } from './common';
import { IMEI_PATTERN } from '../validators/imei';
import { localDaySchema, tripPeriodProblem, tripTypeSchema } from './trips';

export const reportKinds = profileReports;
export type ReportKind = (typeof reportKinds)[number];


/** Spec section 4 and DECISIONS: a unit locked by someone else gives every other user only these. */
export const lockedUnitReportKinds = ['benefitValue', 'summary'] as const satisfies readonly ReportKind[];
/** Accounts with only the basic subscription get the trip log report only. */
export const basicReportKinds = ['tripLog'] as const satisfies readonly ReportKind[];

/** The files a report is exported and scheduled as. */
export const reportFormats = ['pdf', 'xlsx', 'csv'] as const;
export type ReportFormat = (typeof reportFormats)[number];
/** What an export job makes: a file, or `json`, the model itself, for a report too large to answer at once (GET /reports/{kind} 202). */
export const exportFormats = [...reportFormats, 'json'] as const;
export type ExportFormat = (typeof exportFormats)[number];
export const reportGroupings = ['day', 'week', 'month'] as const;
export type ReportGrouping = (typeof reportGroupings)[number];

/** How a value is shown. Rows and totals hold the raw value; the format says what it is. */
export const columnFormats = [
  'text',
  /** yyyy-MM-dd */
  'day',
  /** An ISO 8601 date-time with offset, shown as its local time of day (HH:mm). */
  'time',
  /** An ISO 8601 date-time with offset, shown as local date and time. */
  'dateTime',
  /** Kilometres, 3 decimals in the data, 1 shown. */
  'km',
  /** An odometer reading in km, shown whole. */
  'odometer',
  /** Seconds, shown as h:mm. */
  'duration',
  /** km/h, whole. */
  'speed',
  /** A whole number. */
  'count',
  /** true/false, shown as yes/no in the language. */
  'yesNo',
  /** SEK, 2 decimals. */
  'money',
  /** A latitude or longitude, 5 decimals. */
  'coordinate',
  /** A quantity of fuel (litres, kWh, kg) or a factor, 2 decimals. */
  'amount',
  /** kg (of CO2), 3 decimals in the data, 1 shown. */
  'mass',
  /** A change in per cent, 1 decimal. */
  'percent',
  /** A rate or share (events per 100 km, %), 1 decimal. */
  'decimal',
] as const;
export type ColumnFormat = (typeof columnFormats)[number];

export const cellValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type CellValue = z.infer<typeof cellValueSchema>;

export const reportColumnSchema = z.object({
  key: z.string(),
  /** In the caller's language. */
  label: z.string(),
  format: z.enum(columnFormats),
  /** Shown beside the label ("km", "h:mm", "km/h", "SEK"), or null. */
  unit: z.string().nullable(),
  /** The column has a total (in `totals` under the same key). */
  total: z.boolean(),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportFactSchema = z.object({
  key: z.string(),
  label: z.string(),
  value: cellValueSchema,
  format: z.enum(columnFormats),
  unit: z.string().nullable(),
  /** `warning`: near a limit; `alert`: over it or a gap; null: plain. */
  tone: z.enum(['warning', 'alert']).nullable(),
});
export type ReportFact = z.infer<typeof reportFactSchema>;

const rowSchema = z.record(z.string(), z.unknown());

export const reportTableSchema = z.object({
  key: z.string(),
  title: z.string(),
  columns: z.array(reportColumnSchema),
  rows: z.array(rowSchema),
  /** Values under the keys of the columns with `total`, or null for a table without totals. */
  totals: z.record(z.string(), cellValueSchema).nullable(),
});
export type ReportTable = z.infer<typeof reportTableSchema>;

export const reportUnitSchema = z.object({
  /** The unit's IMEI; a report per driver uses the driver's id here ('' for trips without one). */
  imei: z.string(),
  name: z.string(),
  registrationNumber: z.string().nullable(),
  /** The unit's main table, shown under `columns` of the report. */
  rows: z.array(rowSchema),
  totals: z.record(z.string(), cellValueSchema),
  /** Shown above the table: odometer reconciliation, attestation, the benefit rules' verdicts. */
  facts: z.array(reportFactSchema),
  /** Shown below the main table: appendices. */
  tables: z.array(reportTableSchema),
  notes: z.array(z.string()),
  /** What a kind answers beside its rows (the theft report: theft info, lastPositionBefore). */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ReportUnit = z.infer<typeof reportUnitSchema>;

/** A bar chart the screen and the PDF draw: one bar per label, stacked by series. */
export const reportChartSchema = z.object({
  title: z.string(),
  unit: z.string(),
  labels: z.array(z.string()),
  series: z.array(z.object({ key: z.string(), label: z.string(), values: z.array(z.number()) })),
  /** Horizontal lines: a limit the bars are measured against. */
  limits: z.array(z.object({ label: z.string(), value: z.number() })),
});
export type ReportChart = z.infer<typeof reportChartSchema>;

export const reportModelSchema = z.object({
  kind: z.enum(reportKinds),
  from: z.string(),
  to: z.string(),
  /** The zone the days and times are in (the TimeZone header). */
  timeZone: z.string(),
  lang: z.string(),
  /** In the caller's language: the report's name, and what it covers. */
  title: z.string(),
  subtitle: z.string(),
  /** ISO 8601 with offset. */
  generatedAt: z.string(),
  /**
   * `units`: a section per unit (heading, facts, its rows under `columns`, its totals, appendices).
   * `overview`: one table of every unit's rows under `columns` (the rows carry the unit's name),
   * then `totals`; the sections' facts, tables and notes follow, if any.
   */
  layout: z.enum(['units', 'overview']),
  columns: z.array(reportColumnSchema),
  units: z.array(reportUnitSchema),
  /** Over all units, under the keys of `columns` with `total` (and the contract's other totals). */
  totals: z.record(z.string(), cellValueSchema),
  charts: z.array(reportChartSchema),
  notes: z.array(z.string()),
});
export type ReportModel = z.infer<typeof reportModelSchema>;

const keys = {
  InvalidImei: 'InvalidImei',
  InvalidDate: 'InvalidDate',
  InvalidReportKind: 'InvalidReportKind',
  InvalidReportFormat: 'InvalidReportFormat',
  InvalidGrouping: 'InvalidGrouping',
  InvalidTripType: 'InvalidTripType',
  InvalidDriver: 'InvalidDriver',
  TooManyUnits: 'TooManyUnits',
} as const;

/** The most units one request names; more: pick a department or leave `imeis` out (all units). */
export const REPORT_IMEIS_MAX = 1000;

/** `imeis`: comma-separated, each 15 digits; absent or empty: every unit the caller may see. */
const imeiListSchema = z
  .string()
  .max(REPORT_IMEIS_MAX * 16, keys.TooManyUnits)
  .transform((text) => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))])
  .refine((list) => list.every((imei) => IMEI_PATTERN.test(imei)), keys.InvalidImei)
  .refine((list) => list.length <= REPORT_IMEIS_MAX, keys.TooManyUnits);

const filterText = (key: string) => z.string().trim().min(1, key).max(100, key);

const reportFilterShape = {
  imeis: imeiListSchema.optional(),
  from: localDaySchema,
  to: localDaySchema,
  /** Trips of this driver only (a user id). */
  driverId: filterText(keys.InvalidDriver).optional(),
  /** Trips of this type only. */
  type: tripTypeSchema.optional(),
  /** Large summary: one row per unit per day, week (from Monday) or month (default). */
  groupBy: z.enum(reportGroupings, { message: keys.InvalidGrouping }).optional(),
  /** Summary: one section per unit (default) or per driver. */
  by: z.enum(['unit', 'driver'], { message: keys.InvalidGrouping }).optional(),
  /** Units of this department, tag or project only (large summary). */
  department: filterText('InvalidDepartment').optional(),
  tag: filterText('InvalidTag').optional(),
  project: filterText('ProjectNotAllowed').optional(),
  /** The language of the report's texts (default: the caller's). */
  lang: z.enum(languages, { message: 'InvalidReportLanguage' }).optional(),
};

function checkPeriod(value: { from: string; to: string }, ctx: z.RefinementCtx): void {
  const problem = tripPeriodProblem(value.from, value.to);
  if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem });
}

export const reportKindParamSchema = z.object({ kind: z.enum(reportKinds, { message: keys.InvalidReportKind }) });

export const reportQuerySchema = z.object(reportFilterShape).superRefine(checkPeriod);
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** The request a report is built from: what the query names, the kind, and for exports the format and language. */
export interface ReportRequest extends ReportQuery {
  kind: ReportKind;
}
