/** The speed chart's measures, shared by the chart and its lazily loaded drawing. */

/** CSS pixels, axes included: lower on a phone, where the chart shares the sheet under the map with the controls. */
export const PLOT_HEIGHT = 150;
export const PHONE_PLOT_HEIGHT = 116;
/** As map.css: below this width the panel is a bottom sheet over the map. */
export const PHONE_QUERY = '(max-width: 767.98px)';

export function plotHeight(): number {
  return typeof window !== 'undefined' && window.matchMedia(PHONE_QUERY).matches ? PHONE_PLOT_HEIGHT : PLOT_HEIGHT;
}
/** The y axis reaches at least this far, so that a crawl does not look like a race. */
export const MIN_TOP_KMH = 20;

/** A round top for the y axis, a tenth over the highest speed. */
export function speedAxisTop(max: number | null): number {
  if (max === null || !Number.isFinite(max)) return MIN_TOP_KMH;
  return Math.max(MIN_TOP_KMH, Math.ceil((max * 1.1) / 10) * 10);
}
