/**
 * What the reporter sends (docs/decisions/0042-web-vitals.md): the measurements of one page view,
 * collected and sent together when the page is hidden, each measurement once. Only the route
 * pattern of the address, the metric, its value, rating and navigation type, the brand and a
 * coarse device class leave the browser. Pure, so it is tested without a browser.
 */
import {
  deviceClassOf,
  rateVital,
  navigationTypes,
  WEB_VITALS_MAX_ENTRIES,
  type NavigationType,
  type VitalEntry,
  type VitalName,
  type VitalsBatch,
} from '../../../../shared/web-vitals';

/** What the web-vitals library hands a callback (its Metric, the fields used here). */
export interface MeasuredMetric {
  id: string;
  name: string;
  value: number;
  rating: string;
  navigationType: string;
}

const reported = new Set<string>(['LCP', 'INP', 'CLS', 'TTFB']);
const knownNavigation = new Set<string>(navigationTypes);

export interface VitalsBatcherOptions {
  brand: number;
  /** The viewport width when a report is sent. */
  viewportWidth: () => number;
  /** Sends one report; never throws. */
  send: (batch: VitalsBatch) => void;
}

export class VitalsBatcher {
  private readonly pending: VitalEntry[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly options: VitalsBatcherOptions) {}

  /**
   * Keeps a measurement for the next report. The library may report a metric again (CLS and INP
   * each time the page is hidden); the first report of each metric instance counts, later ones are
   * dropped, so a page view counts once per metric.
   */
  add(metric: MeasuredMetric, routePattern: string): void {
    if (!reported.has(metric.name) || this.seen.has(metric.id) || !Number.isFinite(metric.value) || metric.value < 0) return;
    this.seen.add(metric.id);
    const name = metric.name as VitalName;
    // Milliseconds to whole numbers, CLS to four decimals: enough, and a smaller report. The
    // rating is that of the rounded value (the library's thresholds), as the server checks it.
    const value = name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value);
    this.pending.push({
      name,
      value,
      rating: rateVital(name, value),
      route: routePattern,
      navigationType: (knownNavigation.has(metric.navigationType) ? metric.navigationType : 'navigate') as NavigationType,
    });
  }

  /** Sends what is pending, in reports of at most WEB_VITALS_MAX_ENTRIES measurements. */
  flush(): void {
    while (this.pending.length > 0) {
      const entries = this.pending.splice(0, WEB_VITALS_MAX_ENTRIES);
      this.options.send({ brand: this.options.brand, device: deviceClassOf(this.options.viewportWidth()), entries });
    }
  }
}
