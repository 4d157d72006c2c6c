import { describe, expect, it } from 'vitest';
import { formatCell, type ReportLanguage } from '../../../shared/reports/format';
import { longTripLog, twoUnitSummary, twoUnitTripLog } from '../../../test/support/report-models';
import { pdfPages, renderToBuffer } from '../../../test/support/report-files';
import type { Trip } from '../../../shared/schemas/trips';
import type { ReportModel } from '../../../shared/schemas/reports';
import { textsFor } from '../columns';
import { tripLogColumns, tripLogUnit } from '../kinds/trip-log';
import { renderReport } from './index';

describe('report PDF', () => {
  it.each<[ReportLanguage, string]>([
    ['sv', 'Sida'],
    ['en', 'Page'],
  ])('shows the totals as formatCell gives them, the letters and the page numbers (%s)', async (lang, page) => {
    const model = twoUnitTripLog(lang);
    const pdf = await renderToBuffer(renderReport, model, 'pdf', 3);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pdfPages(pdf);
    const text = pages.join(' ');
    const [first, second] = model.units;
    for (const unit of [first, second]) {
      expect(text).toContain(unit?.name);
      expect(text).toContain(formatCell(unit?.totals['distance'] ?? null, 'km', lang));
      expect(text).toContain(formatCell(unit?.totals['duration'] ?? null, 'duration', lang));
    }
    expect(text).toContain('ÅÄÖ 123');
    // Letters outside Latin-1, from the latin-ext font.
    expect(text).toContain('Łukasz Šimůnek');
    // The totals over all units, with the language's separators (1 317,6 / 1,317.6).
    const fleet = formatCell(model.totals['distance'] ?? null, 'km', lang);
    expect(fleet).toBe(lang === 'sv' ? '1 317,6' : '1,317.6');
    expect(text).toContain(fleet);
    // The alert fact, the appendix and the private trip.
    expect(text).toContain(formatCell(14.25, 'km', lang) + ' km');
    expect(text).toContain(first?.tables[0]?.title);
    expect(text).toContain(lang === 'sv' ? 'Privat' : 'Private');
    expect(text).toContain('NordTrack');
    pages.forEach((p, i) => expect(p).toContain(`${page} ${i + 1} ${lang === 'sv' ? 'av' : 'of'} ${pages.length}`));
  });

  it('repeats the table header and names the unit on every page of a long table', async () => {
    const model = longTripLog('sv', 90);
    const pages = await pdfPages(await renderToBuffer(renderReport, model, 'pdf', 1));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const [i, page] of pages.entries()) {
      expect(page).toContain('Datum Start Slut Från Till');
      expect(page).toContain('Skåpbil Östra Göinge');
      expect(page).toContain(`Sida ${i + 1} av ${pages.length}`);
    }
    // Rows on page 2 are the ones after page 1's, and the long addresses end in an ellipsis.
    expect(pages[1]).toContain('…');
    expect(pages.at(-1)).toContain(`Summa ${formatCell(model.units[0]?.totals['distance'] ?? null, 'km', 'sv')}`);
  });

  it('draws the overview layout as one table of every unit with the totals over all, then what units have beside', async () => {
    const model = twoUnitSummary('en');
    const text = (await pdfPages(await renderToBuffer(renderReport, model, 'pdf', 4))).join(' ');
    // One header, both units' rows, one totals row.
    expect(text.match(/Unit Registration number Trips/g)).toHaveLength(1);
    expect(text).toContain('Skåpbil Östra Göinge ÅÄÖ 123 3 1,294.6 13:04');
    expect(text).toContain('Ærlig Bjørn 1 23.1 0:42');
    expect(text).toContain('Total 4 1,317.6 13:46');
    // The first unit's facts and note in its own section; no section for the second.
    expect(text).toContain('Distance without trips');
    expect(text).not.toContain('Ærlig Bjørn ·');
  });

  it("keeps dates, times and numbers whole in the trip log's 13 columns, narrowing the texts", async () => {
    const x = textsFor('sv');
    const trips = Array.from({ length: 12 }, (_, i) => {
      const day = `2026-03-${String(1 + Math.floor(i / 4)).padStart(2, '0')}`;
      const view: Trip = {
        id: `t${i}`,
        imei: '350000000000001',
        startTime: `${day}T0${6 + (i % 4)}:00:00.000+01:00`,
        stopTime: `${day}T0${6 + (i % 4)}:40:00.000+01:00`,
        startAddress: 'Storgatan 1, 114 55 Stockholm, Sverige',
        stopAddress: 'Kungsgatan 2, 111 43 Stockholm, Sverige',
        startLat: 59.33,
        startLon: 18.06,
        stopLat: 59.34,
        stopLon: 18.07,
        startOdometer: 101_000 + i * 12,
        stopOdometer: 101_012 + i * 12,
        distance: 12.345,
        type: i % 5 ? 'business' : 'private',
        purpose: 'Kundbesök hos Åhléns på Drottninggatan',
        note: 'Parkerade i garaget under huset',
        driverId: 'u1',
        driverName: 'Åsa Öberg',
        passengers: null,
        project: 'Projekt Norrsken',
        merged: false,
        attested: false,
      };
      return { view, changes: [] };
    });
    const unit = tripLogUnit(
      { imei: '350000000000001', name: 'Skåpbil 3', registrationNumber: 'ABC 123', attestations: [], trips },
      { viewer: { userId: 'u1', isAdmin: true, isSupport: false }, names: new Map([['u1', 'Åsa Öberg']]), iso: (ms) => new Date(ms).toISOString() },
      x,
    );
    const model: ReportModel = { ...twoUnitTripLog('sv'), columns: tripLogColumns(x), units: [unit], totals: unit.totals, charts: [], notes: [] };
    const text = (await pdfPages(await renderToBuffer(renderReport, model, 'pdf'))).join(' ');
    expect(text).toContain('2026-03-01 06:00 06:40');
    expect(text).toContain('101 000 101 012 12,3');
    expect(text).toContain('Mätarställning start');
    expect(text).toContain(`Summa ${formatCell(unit.totals['distance'] ?? null, 'km', 'sv')}`);
  });
});
