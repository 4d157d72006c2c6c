/**
 * The speed chart of history playback: a figure with its title, the drawing (speed-plot.tsx, uPlot,
 * loaded lazily) and its text alternative, the top and average speed. The drawing is a slider over
 * the route's points for the keyboard and screen readers, as the scrub slider is: arrows step a
 * point, Page Up and Page Down a tenth, Home and End go to the ends, and its value names the time
 * and speed at the playback position.
 */
import '../history.css';
import { Text, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, useId, useMemo, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useHistoryFormat } from '../format';
import { chartKeyTarget, speedSummary } from '../speed-summary';
import type { HistoryPlayback } from '../use-history-playback';
import { plotHeight } from './plot-size';

const SpeedPlot = lazy(() => import('./speed-plot'));

export function SpeedChart({ playback }: { playback: HistoryPlayback }) {
  const { t } = useTranslation();
  const format = useHistoryFormat();
  const titleId = useId();
  const summaryId = useId();
  const hintId = useId();
  const { positions, times, index, stops } = playback;
  const summary = useMemo(() => speedSummary(positions), [positions]);
  const color = playback.unit?.color ?? '#1c7ed6';

  const point = positions[index];
  const valueText = point ? t('HistoryChartPosition', { time: format.time(times[index] as number), speed: format.speed(point.speed) }) : '';

  const onKeyDown = (event: KeyboardEvent) => {
    const target = chartKeyTarget(event.key, index, positions.length);
    if (target === null) return;
    event.preventDefault();
    playback.preview(null);
    playback.seek(target);
  };

  let words: string;
  if (!summary.top) words = t('HistoryNoSpeeds');
  else if (summary.averageMoving === null) words = t('HistoryNotMoving');
  else {
    words = `${t('HistoryTopSpeed', { speed: format.speed(summary.top.speed), time: format.moment(summary.top.time) })} ${t('HistoryAverageSpeed', {
      speed: format.speed(summary.averageMoving),
      duration: format.duration(summary.movingMs),
    })}`;
  }

  return (
    <figure className="history-chart" aria-labelledby={titleId}>
      <Text component="span" size="sm" fw={500} id={titleId} className="history-chart-title">
        {t('HistorySpeedChart')}
      </Text>
      <div
        className="history-chart-plot"
        role="slider"
        tabIndex={0}
        aria-labelledby={titleId}
        aria-describedby={`${summaryId} ${hintId}`}
        aria-orientation="horizontal"
        aria-valuemin={0}
        aria-valuemax={Math.max(positions.length - 1, 0)}
        aria-valuenow={index}
        aria-valuetext={valueText}
        onKeyDown={onKeyDown}
        data-testid="history-speed-chart"
      >
        <Suspense
          fallback={
            <div className="history-chart-placeholder" style={{ height: plotHeight() }}>
              {t('HistorySpeedChartLoading')}
            </div>
          }
        >
          <SpeedPlot
            positions={positions}
            times={times}
            color={color}
            stops={stops}
            time={playback.time}
            previewIndex={playback.previewIndex}
            onPreview={playback.preview}
            onSeek={playback.seek}
            format={format}
          />
        </Suspense>
      </div>
      <Text component="figcaption" size="sm" mt={4} id={summaryId}>
        {words}
      </Text>
      {/* How to use it goes to the keyboard and screen readers; pointing and tapping explain themselves. */}
      <VisuallyHidden id={hintId}>{t('HistoryChartHint')}</VisuallyHidden>
    </figure>
  );
}
