import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { twoUnitSummary, twoUnitTripLog } from '../../../test/support/report-models';
import { renderToBuffer } from '../../../test/support/report-files';
import { renderReport } from './index';
import { excelDate, sheetNamer } from './xlsx';

async function workbookOf(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

/** Seconds of a duration cell read back. */
function excelSeconds(value: ExcelJS.CellValue): number {
  if (!(value instanceof Date)) throw new Error(`not a time: ${String(value)}`);
  return Math.round((value.getTime() - Date.UTC(1899, 11, 30)) / 1000);
}

/** The row whose cell in `column` reads `text`. */
function rowWith(sheet: ExcelJS.Worksheet, column: number, text: string): ExcelJS.Row {
  let found: ExcelJS.Row | undefined;
  sheet.eachRow((row) => {
    if (!found && row.getCell(column).value === text) found = row;
  });
  if (!found) throw new Error(`no row with ${text} in column ${column} of ${sheet.name}`);
  return found;
}

describe('report XLSX', () => {
  it('has a totals sheet and a sheet per unit, frozen headers, real numbers and dates, equal totals', async () => {
    const model = twoUnitTripLog('sv');
    const workbook = await workbookOf(await renderToBuffer(renderReport, model, 'xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Alla enheter', 'Skåpbil Östra Göinge', 'Ærlig Bjørn', 'Anmärkningar']);

    const sheet = workbook.getWorksheet('Skåpbil Östra Göinge') as ExcelJS.Worksheet;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 3 });
    expect(sheet.getRow(1).getCell(1).value).toBe('Skåpbil Östra Göinge · ÅÄÖ 123');
    expect(sheet.getRow(3).values).toEqual([undefined, 'Datum', 'Start', 'Slut', 'Från', 'Till', 'Typ', 'Förare', 'Sträcka (km)', 'Tid (h:mm)', 'Mätarställning (km)', 'Maxhastighet (km/h)']);
    expect(sheet.getColumn(4).width).toBeGreaterThan(sheet.getColumn(2).width as number);

    const first = sheet.getRow(4);
    expect(first.getCell(1).value).toEqual(new Date(Date.UTC(2026, 1, 2)));
    expect(first.getCell(1).numFmt).toBe('yyyy-mm-dd');
    // 07:45 local time stays 07:45 in Excel, whatever the zone.
    expect(first.getCell(2).value).toEqual(new Date(Date.UTC(2026, 1, 2, 7, 45)));
    expect(first.getCell(2).numFmt).toBe('hh:mm');
    expect(first.getCell(8).value).toBe(61.234);
    expect(first.getCell(8).numFmt).toBe('#,##0.0');
    // A duration is a fraction of a day (exceljs reads a cell formatted as a time back as a Date from 1899-12-30).
    expect(excelSeconds(first.getCell(9).value)).toBe(2820);
    expect(first.getCell(9).numFmt).toBe('[h]:mm');
    expect(sheet.getRow(6).getCell(6).value).toBe('Privat');

    const unit = model.units[0];
    const totals = rowWith(sheet, 1, 'Summa');
    expect(totals.getCell(8).value).toBe(unit?.totals['distance']);
    expect(excelSeconds(totals.getCell(9).value)).toBe(unit?.totals['duration']);
    expect(totals.getCell(8).font?.bold).toBe(true);

    // Facts, the appendix and the note below the table.
    expect(rowWith(sheet, 1, 'Sträcka utan resor (km)').getCell(2).value).toBe(14.25);
    expect(rowWith(sheet, 1, 'Ändringar').number).toBeGreaterThan(totals.number);
    expect(rowWith(sheet, 1, 'Ändrad').getCell(2).value).toBe('Fält');
    expect(rowWith(sheet, 1, '=SUM(A1) is text here, not a formula').getCell(1).type).toBe(ExcelJS.ValueType.String);

    const all = workbook.getWorksheet('Alla enheter') as ExcelJS.Worksheet;
    expect(all.getRow(3).values).toEqual([undefined, 'Enhet', 'Registreringsnummer', 'Sträcka (km)', 'Tid (h:mm)']);
    expect(rowWith(all, 1, 'Ærlig Bjørn').getCell(3).value).toBe(model.units[1]?.totals['distance']);
    const fleet = rowWith(all, 1, 'Summa');
    expect(fleet.getCell(3).value).toBe(model.totals['distance']);
    expect(typeof fleet.getCell(3).value).toBe('number');
  });

  it('has no totals sheet for one unit', async () => {
    const model = twoUnitTripLog('en');
    model.units = model.units.slice(1);
    model.notes = [];
    const workbook = await workbookOf(await renderToBuffer(renderReport, model, 'xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Ærlig Bjørn']);
  });

  it("has one sheet in the overview layout: every unit's row and the totals over all", async () => {
    const model = twoUnitSummary('sv');
    const workbook = await workbookOf(await renderToBuffer(renderReport, model, 'xlsx'));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Sammanställning', 'Anmärkningar']);
    const sheet = workbook.getWorksheet('Sammanställning') as ExcelJS.Worksheet;
    expect(sheet.getRow(3).values).toEqual([undefined, 'Enhet', 'Registreringsnummer', 'Resor', 'Sträcka (km)', 'Tid (h:mm)']);
    expect(sheet.getRow(4).values).toEqual([undefined, 'Skåpbil Östra Göinge', 'ÅÄÖ 123', 3, model.units[0]?.totals['distance'], expect.any(Date)]);
    expect(sheet.getRow(5).getCell(1).value).toBe('Ærlig Bjørn');
    const totals = sheet.getRow(6);
    expect(totals.getCell(1).value).toBe('Summa');
    expect(totals.getCell(3).value).toBe(4);
    expect(totals.getCell(4).value).toBe(model.totals['distance']);
    // The first unit's facts follow under its name.
    expect(rowWith(sheet, 1, 'Skåpbil Östra Göinge · ÅÄÖ 123').number).toBeGreaterThan(6);
    expect(rowWith(sheet, 1, 'Sträcka utan resor (km)').getCell(2).value).toBe(14.25);
  });

  it('names sheets as Excel allows', () => {
    const name = sheetNamer();
    expect(name('Lastbil [3]: väst/öst?')).toBe('Lastbil 3 väst öst');
    expect(name('A very long unit name that Excel would refuse')).toBe('A very long unit name that Exce');
    expect(name('A very long unit name that Excel would refuse too')).toBe('A very long unit name that (2)');
    expect(name('lastbil 3 VÄST ÖST')).toBe('lastbil 3 VÄST ÖST (2)');
    expect(name("'''")).toBe('-');
    expect(name('History')).toBe('History (2)');
  });

  it('reads the local wall-clock time of ISO values', () => {
    expect(excelDate('2026-07-01T23:30:00+02:00')).toEqual(new Date(Date.UTC(2026, 6, 1, 23, 30)));
    expect(excelDate('2026-07-01')).toEqual(new Date(Date.UTC(2026, 6, 1)));
    expect(excelDate('soon')).toBeNull();
  });
});
