/**
 * The PDF of a report: A4 landscape, the brand's mark, name and colour, the report's title, then
 * per unit its heading, facts, main table (header repeated on every page, a totals row) and
 * appendix tables, its notes; then the totals over all units, the charts, the report's notes. In
 * the `overview` layout the units' rows are one table, closed by the totals over all units.
 *
 * Tables are laid out here, row by row, with pdfkit's text and vector calls (pdfkit's own table
 * is far too slow for thousands of rows). Pages are written out as they fill: each page's "Page x
 * of y" is a small form object of its own, written at the end, when the page count is known. Only
 * values through `formatCell` become text.
 */
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { brandById, type BrandId } from '../../../shared/brands';
import { formatCell } from '../../../shared/reports/format';
import type { CellValue, ColumnFormat, ReportChart, ReportColumn, ReportModel, ReportUnit } from '../../../shared/schemas/reports';
import {
  cellText,
  columnHeading,
  FORMAT_WIDTH,
  NUMERIC_FORMATS,
  type Progress,
  ReportRenderer,
} from './common';
import { BRAND_ICONS, FONT_BOLD, FONT_BOLD_EXT, FONT_REGULAR, FONT_REGULAR_EXT } from './embedded-files';
import type { ReportOutput } from './output';

// A4 landscape, in points.
const PAGE_WIDTH = 841.89;
const PAGE_HEIGHT = 595.28;
const MARGIN = 36;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const CONTENT_TOP = 66;
const CONTENT_BOTTOM = PAGE_HEIGHT - 42;
const FOOTER_Y = PAGE_HEIGHT - 30;

const INK = '#1d2430';
const MUTED = '#5b6472';
const RULE = '#c9cfd8';
const STRIPE = '#f2f4f7';
const TONES = {
  warning: { background: '#fff4d6', bar: '#b26a00', text: '#7a4a00' },
  alert: { background: '#fde8e7', bar: '#b3261e', text: '#b3261e' },
} as const;
const SERIES_COLOURS = ['#7a8699', '#e0a100', '#2e9d6a', '#c2410c', '#6d28d9', '#0e7490'];

/** Text the main font draws whole: printable Latin-1 (with the middle dot), the en dash, the ellipsis. */
const LATIN_1 = /^[ -\u00ff\u2013\u2026]*$/;
const CELL_PADDING = 3;
const BODY_SIZE = 7.5;
const ROW_HEIGHT = 13;
/** A table header's line height; the header has as many lines as its fullest column. */
const HEADER_LINE = 9;
/** The widest a date, time or number column gets for its label. */
const MAX_FIXED_WIDTH = 62;
const MIN_TEXT_WIDTH = 45;
/** Points per character of FORMAT_WIDTH at the body size. */
const POINTS_PER_CHAR = 4.9;

type FontName = 'regular' | 'bold';

/** The parts of pdfkit's font and document this file uses beyond @types/pdfkit. */
interface EmbeddedFontInternals {
  id: string;
  ascender: number;
  ref(): PDFKit.PDFKitReference;
  encode(text: string): [string[], unknown[]];
  /** The fontkit font. */
  font: { hasGlyphForCodePoint(codePoint: number): boolean };
}
type Doc = PDFKit.PDFDocument & { _font: EmbeddedFontInternals };

interface TableSpec {
  title: string | null;
  columns: readonly ReportColumn[];
  rows: readonly Readonly<Record<string, unknown>>[];
  totals: Readonly<Record<string, CellValue>> | null;
}

interface FactCell {
  label: string;
  value: string;
  tone: 'warning' | 'alert' | null;
}

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => (c / 255).toFixed(3)).join(' ');
}

class PdfReport extends ReportRenderer {
  private readonly doc: Doc;
  private readonly brand;
  private readonly widths: Record<FontName, Map<string, number>> = { regular: new Map(), bold: new Map() };
  private readonly covered = new Map<string, boolean>();
  private currentFont: FontName = 'regular';
  private currentSize = 0;
  private y = CONTENT_TOP;
  /** Per page, the form its footer draws "Page x of y" with; written at the end, when y is known. */
  private readonly pageNumberForms: PDFKit.PDFKitReference[] = [];
  /** What the repeated header of a table on a new page is preceded by. */
  private continuation: string | null = null;
  /** Unit sections drawn so far. */
  private sections = 0;

  constructor(model: ReportModel, output: ReportOutput, progress: Progress, brandId: BrandId) {
    super(model, output, progress);
    this.brand = brandById(brandId);
    // The font option keeps pdfkit off its standard fonts (their metrics are files a bundle lacks).
    this.doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 0,
      autoFirstPage: false,
      font: FONT_REGULAR as unknown as string,
      lang: this.lang,
      displayTitle: true,
      info: { Title: model.title, Subject: model.subtitle, Author: this.brand.title, Creator: this.brand.title },
    }) as Doc;
    this.doc.registerFont('regular', FONT_REGULAR as unknown as string);
    this.doc.registerFont('bold', FONT_BOLD as unknown as string);
    this.doc.registerFont('regular-ext', FONT_REGULAR_EXT as unknown as string);
    this.doc.registerFont('bold-ext', FONT_BOLD_EXT as unknown as string);
  }

  async render(): Promise<void> {
    this.doc.pipe(this.output, { end: false });
    const ended = new Promise<void>((resolve, reject) => {
      this.doc.on('end', resolve);
      this.doc.on('error', reject);
    });
    this.newPage();
    this.titleBlock();
    const { model, t } = this;
    if (model.layout === 'overview') {
      // One table of every unit's rows (they carry the unit), the totals over all; then what the
      // units have beside their rows.
      await this.table({ title: null, columns: model.columns, rows: model.units.flatMap((u) => u.rows), totals: model.totals }, model.title);
      for (const unit of model.units) if (unit.facts.length || unit.tables.length || unit.notes.length) await this.unitSection(unit, false);
    } else {
      if (model.units.length === 0) this.paragraph(t('ReportNoRows'), MUTED);
      for (const unit of model.units) await this.unitSection(unit, true);
      if (model.units.length !== 1) this.fleetTotals();
    }
    for (const chart of model.charts) this.chart(chart);
    this.notes(model.notes);
    this.writePageNumbers();
    this.doc.end();
    await ended;
    this.progress.finish();
  }

  /** A unit's heading, facts, its rows under the report's columns (in the `units` layout), appendices and notes. */
  private async unitSection(unit: ReportUnit, withRows: boolean): Promise<void> {
    if (this.sections++ > 0) this.space(14);
    this.ensure(120);
    this.unitHeading(unit.name, unit.registrationNumber);
    this.facts(unit.facts.map((f) => ({ label: f.label, value: this.valueWithUnit(f.value, f.format, f.unit), tone: f.tone })));
    const context = unit.registrationNumber ? `${unit.name} · ${unit.registrationNumber}` : unit.name;
    if (withRows) await this.table({ title: null, columns: this.model.columns, rows: unit.rows, totals: unit.totals }, context);
    for (const appendix of unit.tables) {
      this.space(10);
      await this.table(appendix, `${context} · ${appendix.title}`);
    }
    this.notes(unit.notes);
  }

  // Text and measures.

  private font(name: FontName, size: number, colour: string): void {
    if (name !== this.currentFont || size !== this.currentSize) {
      this.doc.font(name).fontSize(size);
      this.currentFont = name;
      this.currentSize = size;
    }
    this.doc.fillColor(colour);
  }

  /** Whether the main font (the `latin` subset) has the character; else the `latin-ext` one is used. */
  private inMainFont(char: string): boolean {
    let has = this.covered.get(char);
    if (has === undefined) {
      has = this.doc._font.font.hasGlyphForCodePoint(char.codePointAt(0) ?? 0);
      this.covered.set(char, has);
    }
    return has;
  }

  /** Width of a character at size 1000 in the current font (or its `-ext` font), measured once. */
  private charWidth(char: string): number {
    const cache = this.widths[this.currentFont];
    let width = cache.get(char);
    if (width === undefined) {
      const ext = !this.inMainFont(char);
      if (ext) this.doc.font(`${this.currentFont}-ext`);
      this.doc.fontSize(1000);
      width = this.doc.widthOfString(char);
      if (ext) this.doc.font(this.currentFont);
      this.doc.fontSize(this.currentSize);
      cache.set(char, width);
    }
    return width;
  }

  private width(text: string): number {
    let sum = 0;
    for (const char of text) sum += this.charWidth(char);
    return (sum * this.currentSize) / 1000;
  }

  /** The text, cut with an ellipsis to fit `max` points in the current font. */
  private fit(text: string, max: number): string {
    if (this.width(text) <= max) return text;
    const limit = (max * 1000) / this.currentSize - this.charWidth('…');
    let sum = 0;
    let cut = '';
    for (const char of text) {
      sum += this.charWidth(char);
      if (sum > limit) break;
      cut += char;
    }
    return `${cut.trimEnd()}…`;
  }

  /** One line at (x, y) (top of the line), cut to `width`, aligned within it. */
  private line(text: string, x: number, y: number, width: number, align: 'left' | 'right' = 'left'): void {
    if (!text) return;
    const shown = this.fit(text, width);
    let at = x + (align === 'right' ? width - this.width(shown) : 0);
    // Latin-1 (and so every Swedish and Norwegian letter) is in the main font; other letters are
    // drawn in runs with the `latin-ext` font.
    if (LATIN_1.test(shown)) {
      this.doc.text(shown, at, y, { lineBreak: false });
      return;
    }
    for (const run of this.runs(shown)) {
      if (run.ext) this.doc.font(`${this.currentFont}-ext`);
      this.doc.text(run.text, at, y, { lineBreak: false });
      if (run.ext) this.doc.font(this.currentFont);
      at += this.width(run.text);
    }
  }

  /** The text in runs of characters of the main font and of the `latin-ext` font. */
  private runs(text: string): { text: string; ext: boolean }[] {
    const runs: { text: string; ext: boolean }[] = [];
    for (const char of text) {
      const ext = !this.inMainFont(char);
      const last = runs.at(-1);
      if (last && last.ext === ext) last.text += char;
      else runs.push({ text: char, ext });
    }
    return runs;
  }

  private valueWithUnit(value: CellValue, format: ColumnFormat, unit: string | null): string {
    const text = formatCell(value, format, this.lang);
    return text && unit ? `${text} ${unit}` : text;
  }

  // Pages.

  private newPage(): void {
    this.doc.addPage({ size: 'A4', layout: 'landscape', margin: 0 });
    this.pageFurniture();
    this.y = CONTENT_TOP;
  }

  /** Starts a new page unless `height` points fit under the current position. */
  private ensure(height: number): boolean {
    if (this.y + height <= CONTENT_BOTTOM) return false;
    this.newPage();
    return true;
  }

  private space(height: number): void {
    this.y += height;
  }

  private pageFurniture(): void {
    const { doc, brand, model, t } = this;
    // The mark, drawn 22 points square (the files are 48 units square).
    const icon = BRAND_ICONS[brand.id] ?? '';
    const size = Number(/\bwidth="([\d.]+)"/.exec(icon)?.[1] ?? 48);
    doc.save().translate(MARGIN, 22).scale(22 / size);
    SVGtoPDF(doc, icon, 0, 0, { width: size, height: size, assumePt: true, fontCallback: () => 'regular' });
    doc.restore();
    this.font('bold', 12, brand.primary);
    this.line(brand.title, MARGIN + 27, 26, 220);
    this.font('regular', 8, MUTED);
    this.line(model.title, MARGIN + 260, 29, CONTENT_WIDTH - 260, 'right');
    doc.rect(MARGIN, 52, CONTENT_WIDTH, 1.2).fill(brand.primary);

    doc.rect(MARGIN, FOOTER_Y - 5, CONTENT_WIDTH, 0.5).fill(RULE);
    this.font('regular', 7.5, MUTED);
    const generated = formatCell(model.generatedAt, 'dateTime', this.lang);
    this.line(`${t('ReportGeneratedAt', { time: generated })} (${model.timeZone})`, MARGIN, FOOTER_Y, 400);
    // "Page x of y", right-aligned, from a form object of this page's own (written at the end).
    const form = doc.ref({ Type: 'XObject', Subtype: 'Form', BBox: [-300, -20, 20, 20] });
    this.pageNumberForms.push(form);
    (doc.page.xobjects as Record<string, PDFKit.PDFKitReference>)['PageNumber'] = form;
    doc.addContent(`q 1 0 0 1 ${(PAGE_WIDTH - MARGIN).toFixed(2)} ${FOOTER_Y.toFixed(2)} cm /PageNumber Do Q`);
  }

  /** Writes each page's "Page x of y" form: the text ending at the form's origin. */
  private writePageNumbers(): void {
    this.font('regular', 7.5, MUTED);
    const font = this.doc._font;
    const baseline = (font.ascender / 1000) * this.currentSize;
    for (const [index, form] of this.pageNumberForms.entries()) {
      const text = this.t('ReportPageOf', { page: index + 1, pages: this.pageNumberForms.length });
      const [glyphs] = font.encode(text);
      (form.data as Record<string, unknown>)['Resources'] = { Font: { [font.id]: font.ref() } };
      // The page's coordinates run downwards (pdfkit flips them); the form flips back for its text.
      const x = -this.width(text);
      form.end(
        `q 1 0 0 -1 0 0 cm ${rgb(MUTED)} rg BT /${font.id} ${this.currentSize} Tf 1 0 0 1 ${x.toFixed(2)} ${(-baseline).toFixed(2)} Tm <${glyphs.join('')}> Tj ET Q`,
      );
    }
  }

  // Blocks.

  private titleBlock(): void {
    const { model, t } = this;
    this.font('bold', 18, INK);
    this.line(model.title, MARGIN, this.y, CONTENT_WIDTH);
    this.y += 24;
    if (model.subtitle) {
      this.font('regular', 11, MUTED);
      this.line(model.subtitle, MARGIN, this.y, CONTENT_WIDTH);
      this.y += 16;
    }
    this.font('regular', 8.5, MUTED);
    const generated = formatCell(model.generatedAt, 'dateTime', this.lang);
    this.line(`${t('ReportGeneratedAt', { time: generated })} (${model.timeZone})`, MARGIN, this.y, CONTENT_WIDTH);
    this.y += 20;
  }

  private unitHeading(name: string, registrationNumber: string | null): void {
    this.font('bold', 13, this.brand.primary);
    const nameWidth = Math.min(this.width(name), CONTENT_WIDTH);
    this.line(name, MARGIN, this.y, CONTENT_WIDTH);
    if (registrationNumber) {
      this.font('regular', 11, MUTED);
      this.line(`· ${registrationNumber}`, MARGIN + nameWidth + 6, this.y + 2, Math.max(0, CONTENT_WIDTH - nameWidth - 6));
    }
    this.y += 22;
  }

  /** A key/value block, four to a line; a tone colours its cell. */
  private facts(cells: readonly FactCell[]): void {
    if (cells.length === 0) return;
    const perLine = 4;
    const gap = 6;
    const cellWidth = (CONTENT_WIDTH - gap * (perLine - 1)) / perLine;
    const cellHeight = 30;
    for (let i = 0; i < cells.length; i += perLine) {
      this.ensure(cellHeight + gap);
      for (const [j, cell] of cells.slice(i, i + perLine).entries()) {
        const x = MARGIN + j * (cellWidth + gap);
        const tone = cell.tone ? TONES[cell.tone] : null;
        this.doc.rect(x, this.y, cellWidth, cellHeight).fill(tone?.background ?? STRIPE);
        if (tone) this.doc.rect(x, this.y, 3, cellHeight).fill(tone.bar);
        this.font('regular', 7, tone?.text ?? MUTED);
        this.line(cell.label, x + 8, this.y + 4, cellWidth - 12);
        this.font('bold', 10, tone?.text ?? INK);
        this.line(cell.value, x + 8, this.y + 14, cellWidth - 12);
      }
      this.y += cellHeight + gap;
    }
    this.y += 4;
  }

  private paragraph(text: string, colour: string): void {
    this.font('regular', 8.5, colour);
    const height = this.doc.heightOfString(text, { width: CONTENT_WIDTH });
    this.ensure(height + 4);
    this.doc.text(text, MARGIN, this.y, { width: CONTENT_WIDTH });
    this.y += height + 4;
  }

  private notes(notes: readonly string[]): void {
    if (notes.length === 0) return;
    this.space(6);
    this.ensure(30);
    this.font('bold', 9, INK);
    this.line(this.t('ReportNotes'), MARGIN, this.y, CONTENT_WIDTH);
    this.y += 14;
    for (const note of notes) this.paragraph(note, MUTED);
  }

  private fleetTotals(): void {
    const { model, t } = this;
    const cells = model.columns
      .filter((c) => c.total)
      .map((c) => ({ label: columnHeading(c), value: formatCell(model.totals[c.key] ?? null, c.format, this.lang), tone: null }));
    if (cells.length === 0) return;
    this.space(14);
    this.ensure(70);
    this.font('bold', 13, this.brand.primary);
    this.line(t('ReportAllUnits'), MARGIN, this.y, CONTENT_WIDTH);
    this.y += 22;
    this.facts(cells);
  }

  // Tables.

  /**
   * Column widths. Dates, times and numbers get their width from the format (and the longest word
   * of their label, up to a limit) and are not narrowed; text columns share what is left, by what
   * their first rows need (within the format's width), each at least MIN_TEXT_WIDTH. Only when even
   * that does not fit is every column narrowed alike.
   */
  private columnWidths(columns: readonly ReportColumn[], rows: readonly Readonly<Record<string, unknown>>[]): number[] {
    // A text column as wide as most of its first rows need (the 90th percentile), within its format's width.
    this.font('regular', BODY_SIZE, INK);
    const sample = rows.slice(0, 200);
    const contentWidth = (column: ReportColumn) => {
      const widths = sample.map((row) => this.width(cellText(row, column, this.lang))).sort((a, b) => a - b);
      return widths[Math.floor(widths.length * 0.9)] ?? 0;
    };
    this.font('bold', BODY_SIZE, INK);
    const pad = 2 * CELL_PADDING;
    const longestWord = (label: string) => Math.max(0, ...label.split(/\s+/).map((word) => this.width(word)));
    const natural = columns.map((c) => {
      const byFormat = FORMAT_WIDTH[c.format] * POINTS_PER_CHAR;
      if (c.format === 'text') return Math.min(byFormat, Math.max(contentWidth(c), longestWord(c.label), MIN_TEXT_WIDTH - pad)) + pad;
      return Math.min(Math.max(byFormat, longestWord(c.label)), MAX_FIXED_WIDTH) + pad;
    });
    const isText = columns.map((c) => c.format === 'text');
    // A text column is never narrower than MIN_TEXT_WIDTH nor than its label's longest word.
    const minimum = columns.map((c, i) => (isText[i] ? Math.max(MIN_TEXT_WIDTH, Math.min(natural[i] as number, longestWord(c.label) + pad)) : 0));
    const fixed = natural.reduce((n, w, i) => n + (isText[i] ? 0 : w), 0);
    const text = natural.reduce((n, w, i) => n + (isText[i] ? w : 0), 0);
    const room = CONTENT_WIDTH - fixed;
    if (!isText.includes(true)) return fixed <= CONTENT_WIDTH ? natural : natural.map((w) => (w * CONTENT_WIDTH) / fixed);
    const least = minimum.reduce((a, b) => a + b, 0);
    if (room < least) return natural.map((w, i) => ((isText[i] ? (minimum[i] as number) : w) * CONTENT_WIDTH) / (fixed + least));
    // The text columns fill the room, by their natural widths, none under the minimum.
    let free = room;
    let share = text;
    const widths = natural.map((w, i) => (isText[i] ? 0 : w));
    const open = new Set(natural.flatMap((_, i) => (isText[i] ? [i] : [])));
    for (let changed = true; changed; ) {
      changed = false;
      for (const i of open) {
        if (((natural[i] as number) * free) / share < (minimum[i] as number)) {
          widths[i] = minimum[i] as number;
          free -= minimum[i] as number;
          share -= natural[i] as number;
          open.delete(i);
          changed = true;
        }
      }
    }
    for (const i of open) widths[i] = ((natural[i] as number) * free) / share;
    return widths;
  }

  /** A column's label in up to two lines (the second cut to fit), then its unit. */
  private headerLines(column: ReportColumn, width: number): string[] {
    const words = column.label.split(/\s+/);
    let first = words.shift() ?? '';
    while (words.length && this.width(`${first} ${words[0]}`) <= width) first += ` ${words.shift()}`;
    return words.length ? [first, words.join(' ')] : [first];
  }

  /** Each column's header lines: its label in up to two lines, then its unit. */
  private headerTexts(columns: readonly ReportColumn[], widths: readonly number[]): string[][] {
    this.font('bold', BODY_SIZE, INK);
    return columns.map((c, i) => [...this.headerLines(c, (widths[i] as number) - 2 * CELL_PADDING), ...(c.unit ? [c.unit] : [])]);
  }

  private headerHeight(texts: readonly string[][]): number {
    return 6 + HEADER_LINE * Math.max(1, ...texts.map((t) => t.length));
  }

  private tableHeader(columns: readonly ReportColumn[], widths: readonly number[], texts: readonly string[][]): void {
    const total = widths.reduce((a, b) => a + b, 0);
    const height = this.headerHeight(texts);
    this.doc.rect(MARGIN, this.y, total, height).fill(this.brand.primary);
    let x = MARGIN;
    for (const [i, column] of columns.entries()) {
      const width = (widths[i] as number) - 2 * CELL_PADDING;
      const align = NUMERIC_FORMATS.has(column.format) ? 'right' : 'left';
      for (const [n, text] of (texts[i] ?? []).entries()) {
        const isUnit = column.unit !== null && n === (texts[i]?.length ?? 0) - 1;
        if (isUnit) this.font('regular', 6.5, '#ffffff');
        else this.font('bold', BODY_SIZE, '#ffffff');
        this.line(text, x + CELL_PADDING, this.y + 3 + n * HEADER_LINE + (isUnit ? 0.5 : 0), width, align);
      }
      x += widths[i] as number;
    }
    this.y += height;
  }

  /** A new page for the rest of a table: what it belongs to, then its header again. */
  private continueTable(columns: readonly ReportColumn[], widths: readonly number[], header: readonly string[][]): void {
    this.newPage();
    if (this.continuation) {
      this.font('regular', 8, MUTED);
      this.line(this.continuation, MARGIN, this.y, CONTENT_WIDTH);
      this.y += 13;
    }
    this.tableHeader(columns, widths, header);
  }

  private row(columns: readonly ReportColumn[], widths: readonly number[], texts: readonly string[], font: FontName): void {
    let x = MARGIN;
    this.font(font, BODY_SIZE, INK);
    for (const [i, column] of columns.entries()) {
      const width = widths[i] as number;
      this.line(texts[i] ?? '', x + CELL_PADDING, this.y + 3, width - 2 * CELL_PADDING, NUMERIC_FORMATS.has(column.format) ? 'right' : 'left');
      x += width;
    }
    this.y += ROW_HEIGHT;
  }

  private async table(spec: TableSpec, context: string): Promise<void> {
    const { columns, rows, totals } = spec;
    if (columns.length === 0) return;
    const widths = this.columnWidths(columns, rows);
    const header = this.headerTexts(columns, widths);
    const tableWidth = widths.reduce((a, b) => a + b, 0);
    this.continuation = context;
    this.ensure((spec.title ? 18 : 0) + this.headerHeight(header) + 2 * ROW_HEIGHT);
    if (spec.title) {
      this.font('bold', 10.5, INK);
      this.line(spec.title, MARGIN, this.y, CONTENT_WIDTH);
      this.y += 17;
    }
    this.tableHeader(columns, widths, header);
    if (rows.length === 0) {
      this.font('regular', BODY_SIZE, MUTED);
      this.line(this.t('ReportNoRows'), MARGIN + CELL_PADDING, this.y + 3, tableWidth);
      this.y += ROW_HEIGHT;
    }
    for (const [index, row] of rows.entries()) {
      if (this.y + ROW_HEIGHT > CONTENT_BOTTOM) this.continueTable(columns, widths, header);
      if (index % 2 === 1) this.doc.rect(MARGIN, this.y, tableWidth, ROW_HEIGHT).fill(STRIPE);
      this.row(columns, widths, columns.map((c) => cellText(row, c, this.lang)), 'regular');
      await this.rowDone(index, rows.length);
    }
    if (totals) {
      if (this.y + ROW_HEIGHT + 2 > CONTENT_BOTTOM) this.continueTable(columns, widths, header);
      this.doc.rect(MARGIN, this.y, tableWidth, 1).fill(this.brand.primary);
      this.y += 1;
      // "Total" in the first column without a total of its own.
      const labelAt = columns.findIndex((c) => !c.total);
      const texts = columns.map((c, i) => (c.total ? formatCell(totals[c.key] ?? null, c.format, this.lang) : i === labelAt ? this.t('ReportTotal') : ''));
      this.row(columns, widths, texts, 'bold');
    }
    this.continuation = null;
    this.y += 4;
  }

  // Charts.

  private chart(chart: ReportChart): void {
    const height = 210;
    this.space(14);
    this.ensure(height + 24);
    const { doc } = this;
    this.font('bold', 10.5, INK);
    this.line(chart.unit ? `${chart.title} (${chart.unit})` : chart.title, MARGIN, this.y, CONTENT_WIDTH / 2);

    const colours = [this.brand.primary, ...SERIES_COLOURS];
    // Legend, right-aligned on the title's line: series, then limits.
    const legend = [
      ...chart.series.map((s, i) => ({ label: s.label, colour: colours[i % colours.length] as string, dashed: false })),
      ...chart.limits.map((l) => ({ label: l.label, colour: TONES.alert.bar, dashed: true })),
    ];
    this.font('regular', 7.5, INK);
    let lx = MARGIN + CONTENT_WIDTH;
    for (const item of [...legend].reverse()) {
      const text = this.fit(item.label, 140);
      lx -= this.width(text) + 18;
      if (lx < MARGIN + CONTENT_WIDTH / 2) break;
      if (item.dashed) doc.moveTo(lx, this.y + 5).lineTo(lx + 10, this.y + 5).dash(2, { space: 2 }).lineWidth(1.2).stroke(item.colour).undash();
      else doc.rect(lx, this.y + 1, 10, 8).fill(item.colour);
      this.font('regular', 7.5, INK);
      this.line(text, lx + 13, this.y + 1, 140);
    }
    this.y += 20;

    const axisWidth = 44;
    const plotX = MARGIN + axisWidth;
    const plotWidth = CONTENT_WIDTH - axisWidth;
    const plotTop = this.y + 4;
    const plotHeight = height - 40;
    const plotBottom = plotTop + plotHeight;
    const stacks = chart.labels.map((_, i) => chart.series.reduce((sum, s) => sum + Math.max(0, s.values[i] ?? 0), 0));
    const peak = Math.max(0, ...stacks, ...chart.limits.map((l) => l.value));
    const step = niceStep(peak / 4);
    const top = Math.max(step, Math.ceil((peak * 1.05) / step) * step);
    const yOf = (value: number) => plotBottom - (value / top) * plotHeight;

    // Grid and axis labels.
    for (let v = 0; v <= top + step / 2; v += step) {
      const y = yOf(v);
      doc.rect(plotX, y, plotWidth, v === 0 ? 0.8 : 0.4).fill(v === 0 ? MUTED : RULE);
      this.font('regular', 6.5, MUTED);
      this.line(formatCell(v, step < 1 ? 'km' : 'count', this.lang), MARGIN, y - 4, axisWidth - 6, 'right');
    }
    // Bars, stacked by series.
    const band = chart.labels.length ? plotWidth / chart.labels.length : plotWidth;
    const barWidth = Math.max(1, band * 0.7);
    for (const [i] of chart.labels.entries()) {
      let base = 0;
      for (const [s, series] of chart.series.entries()) {
        const value = Math.max(0, series.values[i] ?? 0);
        if (value === 0) continue;
        const y0 = yOf(base);
        const y1 = yOf(base + value);
        doc.rect(plotX + i * band + (band - barWidth) / 2, y1, barWidth, y0 - y1).fill(colours[s % colours.length] as string);
        base += value;
      }
    }
    // Limit lines.
    for (const limit of chart.limits) {
      const y = yOf(limit.value);
      doc.moveTo(plotX, y).lineTo(plotX + plotWidth, y).dash(4, { space: 3 }).lineWidth(1.2).stroke(TONES.alert.bar).undash();
      this.font('regular', 6.5, TONES.alert.text);
      this.line(limit.label, plotX + plotWidth - 160, y - 9, 158, 'right');
    }
    // Labels under the bars, as many as fit.
    this.font('regular', 6.5, MUTED);
    const every = Math.max(1, Math.ceil(chart.labels.length / Math.max(1, Math.floor(plotWidth / 34))));
    for (let i = 0; i < chart.labels.length; i += every) {
      const width = band * every;
      const text = this.fit(chart.labels[i] ?? '', width - 2);
      this.line(text, plotX + i * band + band / 2 - this.width(text) / 2, plotBottom + 4, width);
    }
    this.y = plotBottom + 18;
  }
}

/** 1, 2 or 5 times a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / power;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power;
}

export async function renderPdf(model: ReportModel, brand: BrandId, output: ReportOutput, progress: Progress): Promise<void> {
  await new PdfReport(model, output, progress, brand).render();
  await output.close();
}
