import { describe, expect, it } from 'vitest';
import { formatCell, type ReportLanguage } from '../../../shared/reports/format';
import { twoUnitSummary, twoUnitTripLog } from '../../../test/support/report-models';
import { renderToBuffer } from '../../../test/support/report-files';
import { renderReport } from './index';

/** RFC 4180 records: fields split on `delimiter` outside quotes, "" inside quotes is one quote. */
function parseCsv(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += char;
  }
  expect(quoted, 'a quote left open').toBe(false);
  expect(field === '' && record.length === 0, 'the last line ends with CRLF').toBe(true);
  return records;
}

describe('report CSV', () => {
  it.each<[ReportLanguage, string]>([
    ['sv', ';'],
    ['en', ','],
  ])('is one table with the units, their totals and the fleet total, then facts, appendix and notes (%s)', async (lang, delimiter) => {
    const model = twoUnitTripLog(lang);
    const bytes = await renderToBuffer(renderReport, model, 'csv');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const records = parseCsv(text, delimiter);
    const width = model.columns.length + 2;
    const [header, ...rest] = records;
    expect(header).toEqual([lang === 'sv' ? 'Enhet' : 'Unit', lang === 'sv' ? 'Registreringsnummer' : 'Registration number', ...model.columns.map((c) => (c.unit ? `${c.label} (${c.unit})` : c.label))]);

    const [first, second] = model.units;
    const total = lang === 'sv' ? 'Summa' : 'Total';
    const plain = (value: unknown, format: 'km' | 'duration') => formatCell(value as number, format, lang, { plain: true });
    expect(rest.slice(0, 7)).toEqual([
      ...(first?.rows ?? []).map((row) => ['Skåpbil Östra Göinge', 'ÅÄÖ 123', ...model.columns.map((c) => formatCell(row[c.key] as never, c.format, lang, { plain: true }))]),
      ['Skåpbil Östra Göinge', 'ÅÄÖ 123', total, '', '', '', '', '', '', plain(first?.totals['distance'], 'km'), plain(first?.totals['duration'], 'duration'), '', ''],
      ['Ærlig Bjørn', '', ...model.columns.map((c) => formatCell(second?.rows[0]?.[c.key] as never, c.format, lang, { plain: true }))],
      ['Ærlig Bjørn', '', total, '', '', '', '', '', '', plain(second?.totals['distance'], 'km'), plain(second?.totals['duration'], 'duration'), '', ''],
      [lang === 'sv' ? 'Alla enheter' : 'All units', '', total, '', '', '', '', '', '', plain(model.totals['distance'], 'km'), plain(model.totals['duration'], 'duration'), '', ''],
    ]);
    rest.slice(0, 7).forEach((record) => expect(record).toHaveLength(width));
    // Decimal comma and no thousands separator in Swedish; a point in English.
    expect(rest[2]?.[9]).toBe(lang === 'sv' ? '1172,5' : '1172.5');
    expect(rest[6]?.[9]).toBe(lang === 'sv' ? '1317,6' : '1317.6');
    expect(rest[2]?.[7]).toBe(lang === 'sv' ? 'Privat' : 'Private');

    // Sections after a blank line each (a blank line is one empty field).
    const blanks = rest.flatMap((record, i) => (record.length === 1 && record[0] === '' ? [i] : []));
    expect(blanks).toHaveLength(3);
    const facts = rest.slice((blanks[0] as number) + 1, blanks[1]);
    expect(facts[2]).toEqual(['Skåpbil Östra Göinge', 'ÅÄÖ 123', lang === 'sv' ? 'Sträcka utan resor (km)' : 'Distance without trips (km)', lang === 'sv' ? '14,3' : '14.3']);
    const appendix = rest.slice((blanks[1] as number) + 1, blanks[2]);
    expect(appendix[0]).toEqual([first?.tables[0]?.title]);
    expect(appendix[2]?.[2]).toBe('2026-02-08 09:14');
    const notes = rest.slice((blanks[2] as number) + 1);
    // A text a spreadsheet would run as a formula is kept as text.
    expect(notes[1]).toEqual(['Skåpbil Östra Göinge', 'ÅÄÖ 123', "'=SUM(A1) is text here, not a formula"]);
    expect(notes[2]).toEqual(['', '', model.notes[0]]);
  });

  it("is the report's columns alone in the overview layout, with one totals line", async () => {
    const model = twoUnitSummary('no');
    const records = parseCsv((await renderToBuffer(renderReport, model, 'csv')).subarray(3).toString('utf8'), ';');
    expect(records.slice(0, 4)).toEqual([
      ['Enhet', 'Registreringsnummer', 'Turer', 'Strekning (km)', 'Tid (h:mm)'],
      ['Skåpbil Östra Göinge', 'ÅÄÖ 123', '3', '1294,6', '13:04'],
      ['Ærlig Bjørn', '', '1', '23,1', '0:42'],
      ['Sum', '', '4', '1317,6', '13:46'],
    ]);
    expect(records[4]).toEqual(['']);
  });
});
