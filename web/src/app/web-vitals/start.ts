/**
 * Starts web vitals reporting without slowing the page: a sampled page view loads the reporter
 * (web/src/app/web-vitals/report.ts and the web-vitals library, a chunk of their own) once the page
 * has loaded and the browser is idle; any other page view loads nothing.
 */
import { WEB_VITALS_SAMPLE_RATE_KEY } from '../../../../shared/web-vitals-sampling';
import { isSampled, sampleRateOf } from './sampling';

function storedOverride(): string | null {
  try {
    return window.localStorage.getItem(WEB_VITALS_SAMPLE_RATE_KEY);
  } catch {
    return null;
  }
}

export function startWebVitals(brand: number): void {
  if (!isSampled(sampleRateOf(storedOverride()), Math.random())) return;
  const load = () => {
    void import('./report').then(
      (m) => m.reportWebVitals(brand),
      () => undefined,
    );
  };
  const whenIdle = () => (typeof window.requestIdleCallback === 'function' ? window.requestIdleCallback(load, { timeout: 5000 }) : window.setTimeout(load, 1000));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
