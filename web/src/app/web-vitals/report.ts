/**
 * The web vitals reporter, loaded lazily by start.ts: the web-vitals library's LCP, INP, CLS and
 * TTFB, each measurement tagged with the route pattern shown when it is reported, and sent to
 * `POST /api/v1/web-vitals` as a beacon (fetch with keepalive where there is none) when the page
 * is hidden or left. The reports' answers are not read: a refused or lost report costs nothing.
 */
import { onCLS, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import type { VitalsBatch } from '../../../../shared/web-vitals';
import { routePatternOf } from '../paths';
import { VitalsBatcher } from './batch';

export const WEB_VITALS_PATH = '/api/v1/web-vitals';

function send(batch: VitalsBatch): void {
  const body = JSON.stringify(batch);
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(WEB_VITALS_PATH, new Blob([body], { type: 'application/json' }))) return;
    void fetch(WEB_VITALS_PATH, { method: 'POST', body, headers: { 'content-type': 'application/json' }, keepalive: true }).catch(() => undefined);
  } catch {
    // Reporting never disturbs the page.
  }
}

let started = false;

export function reportWebVitals(brand: number): void {
  if (started) return;
  started = true;
  const batcher = new VitalsBatcher({ brand, viewportWidth: () => window.innerWidth, send });
  const add = (metric: Metric) => {
    batcher.add(metric, routePatternOf(window.location.pathname));
    // A measurement reported while the page is already hidden (after the flush below) goes out too.
    if (document.visibilityState === 'hidden') window.setTimeout(() => batcher.flush(), 0);
  };
  onTTFB(add);
  onLCP(add);
  onCLS(add);
  onINP(add);
  // The library reports CLS and INP on 'visibilitychange' in the capture phase at the window; this
  // bubble-phase listener runs after it, so one report holds them all.
  window.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') batcher.flush();
  });
  window.addEventListener('pagehide', () => batcher.flush());
}
