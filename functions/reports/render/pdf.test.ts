import { describe, expect, it } from 'vitest';
import { formatCell, type ReportLanguage } from '../../../shared/reports/format';
import { longTripLog, twoUnitTripLog } from '../../../test/support/report-models';
import { pdfPages, renderToBuffer } from '../../../test/support/report-files';
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
});
