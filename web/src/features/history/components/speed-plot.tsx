/**
 * The speed chart's drawing: uPlot on a canvas (docs/decisions/0016-history-chart.md), loaded
 * lazily with this module. km/h against time in the browser's zone (uPlot's and Intl's default),
 * stops shaded, a line at the playback clock and one where the pointer is. Its words and keyboard
 * are in speed-chart.tsx, which does not wait for this module.
 *
 * Pointer: a mouse over the chart previews that moment (the map's marker goes there and comes back
 * when the mouse leaves); pressing, tapping or dragging moves playback there. Vertical swipes still
 * scroll the panel (touch-action: pan-y).
 */
import 'uplot/dist/uPlot.min.css';
import { useCallback, useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { Position } from '../../../../../shared/schemas/tracking';
import type { HistoryFormat } from '../format';
import { nearestIndex } from '../speed-summary';
import { plotHeight, speedAxisTop } from './plot-size';
import type { Stop } from '../stops';

/** A period longer than this is labelled by day. */
const DAY_AXIS_MS = 36 * 3_600_000;
const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export interface SpeedPlotProps {
  positions: readonly Position[];
  /** Epoch ms of each position. */
  times: readonly number[];
  color: string;
  stops: readonly Stop[];
  /** The playback clock, epoch ms. */
  time: number;
  /** The previewed point, null when none. */
  previewIndex: number | null;
  onPreview(index: number | null): void;
  onSeek(index: number): void;
  format: HistoryFormat;
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

export default function SpeedPlot({ positions, times, color, stops, time, previewIndex, onPreview, onSeek, format }: SpeedPlotProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const playLine = useRef<HTMLDivElement | null>(null);
  const hoverLine = useRef<HTMLDivElement | null>(null);
  // What the listeners and hooks read: the newest props, without building the chart anew.
  const latest = useRef({ time, previewIndex, onPreview, onSeek, stops });
  useEffect(() => {
    latest.current = { time, previewIndex, onPreview, onSeek, stops };
  });
  const placeLines = useCallback(() => {
    const u = plot.current;
    if (!u) return;
    const { time: now, previewIndex: hovered } = latest.current;
    if (playLine.current) playLine.current.style.transform = `translateX(${u.valToPos(now / 1000, 'x')}px)`;
    const hoverTime = hovered === null ? undefined : times[hovered];
    if (hoverLine.current) {
      hoverLine.current.style.display = hoverTime === undefined ? 'none' : 'block';
      if (hoverTime !== undefined) hoverLine.current.style.transform = `translateX(${u.valToPos(hoverTime / 1000, 'x')}px)`;
    }
  }, [times]);

  useEffect(() => {
    const el = box.current;
    if (!el || times.length === 0) return;
    const text = cssVar(el, '--mantine-color-dimmed', '#868e96');
    const grid = cssVar(el, '--mantine-color-default-border', '#dee2e6');
    const ink = cssVar(el, '--mantine-color-text', '#000000');
    const byDay = (times[times.length - 1] as number) - (times[0] as number) > DAY_AXIS_MS;
    let top: number | null = null;
    for (const p of positions) if (p.speed !== null && (top === null || p.speed > top)) top = p.speed;
    const xs = times.map((t) => t / 1000);
    const ys = positions.map((p) => p.speed);

    const u = new uPlot(
      {
        width: Math.max(el.clientWidth, 100),
        height: plotHeight(),
        legend: { show: false },
        cursor: { show: false, drag: { x: false, y: false } },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        scales: { x: { time: true }, y: { range: [0, speedAxisTop(top)] } },
        series: [{}, { stroke: color, width: 2, fill: `${color}2e`, points: { show: false }, spanGaps: false }],
        axes: [
          {
            stroke: text,
            font: FONT,
            size: 26,
            space: byDay ? 56 : 46,
            grid: { stroke: grid, width: 1 },
            ticks: { stroke: grid, width: 1, size: 4 },
            values: (_u, splits) => splits.map((s) => (byDay ? format.axisDay(s * 1000) : format.axisTime(s * 1000))),
          },
          {
            stroke: text,
            font: FONT,
            size: 30,
            space: 28,
            label: 'km/h',
            labelFont: FONT,
            labelSize: 14,
            labelGap: 0,
            grid: { stroke: grid, width: 1 },
            ticks: { show: false },
            values: (_u, splits) => splits.map((s) => String(s)),
          },
        ],
        hooks: {
          // Stops as shaded bands behind the line.
          drawClear: [
            (self) => {
              const { ctx, bbox } = self;
              ctx.save();
              ctx.fillStyle = 'rgba(134, 142, 150, 0.2)';
              for (const stop of latest.current.stops) {
                const x0 = self.valToPos(stop.arrival / 1000, 'x', true);
                const x1 = self.valToPos(stop.departure / 1000, 'x', true);
                ctx.fillRect(x0, bbox.top, Math.max(x1 - x0, 1), bbox.height);
              }
              ctx.restore();
            },
          ],
          setSize: [placeLines],
        },
      },
      [xs, ys],
      el,
    );
    plot.current = u;
    u.root.setAttribute('aria-hidden', 'true');

    const over = u.over;
    over.style.touchAction = 'pan-y';
    over.style.cursor = 'pointer';
    const line = (className: string, background: string) => {
      const div = document.createElement('div');
      div.className = className;
      div.style.background = background;
      over.appendChild(div);
      return div;
    };
    hoverLine.current = line('history-plot-hover', text);
    playLine.current = line('history-plot-playback', ink);
    placeLines();

    const indexAt = (clientX: number) => {
      const rect = over.getBoundingClientRect();
      const left = Math.min(Math.max(clientX - rect.left, 0), rect.width);
      return nearestIndex(times, u.posToVal(left, 'x') * 1000);
    };
    let dragging: number | null = null;
    const down = (e: PointerEvent) => {
      if (e.pointerType === 'mouse' && e.button !== 0) return;
      dragging = e.pointerId;
      over.setPointerCapture(e.pointerId);
      latest.current.onPreview(null);
      latest.current.onSeek(indexAt(e.clientX));
    };
    const move = (e: PointerEvent) => {
      if (dragging === e.pointerId) latest.current.onSeek(indexAt(e.clientX));
      else if (e.pointerType === 'mouse') latest.current.onPreview(indexAt(e.clientX));
    };
    const up = (e: PointerEvent) => {
      if (dragging === e.pointerId) dragging = null;
    };
    const leave = (e: PointerEvent) => {
      if (e.pointerType === 'mouse' && dragging === null) latest.current.onPreview(null);
    };
    over.addEventListener('pointerdown', down);
    over.addEventListener('pointermove', move);
    over.addEventListener('pointerup', up);
    over.addEventListener('pointercancel', up);
    over.addEventListener('pointerleave', leave);

    // A new width, or a phone turned so that the panel is beside the map (a new height).
    const observer = new ResizeObserver(() => {
      const width = Math.max(el.clientWidth, 100);
      const height = plotHeight();
      if (width !== u.width || height !== u.height) u.setSize({ width, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      over.removeEventListener('pointerdown', down);
      over.removeEventListener('pointermove', move);
      over.removeEventListener('pointerup', up);
      over.removeEventListener('pointercancel', up);
      over.removeEventListener('pointerleave', leave);
      u.destroy();
      plot.current = null;
      playLine.current = null;
      hoverLine.current = null;
    };
  }, [positions, times, color, format, placeLines]);

  // New stops come with new positions, which build the chart anew; this redraws for the rest.
  useEffect(() => {
    plot.current?.redraw(false);
  }, [stops]);

  useEffect(() => {
    placeLines();
  }, [time, previewIndex, placeLines]);

  return <div ref={box} className="history-plot" />;
}
