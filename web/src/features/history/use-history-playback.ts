/**
 * History playback of one unit, shared by the side panel (HistoryPanel, with its speed chart and
 * stops) and the map (HistoryLayers). Pass the unit while its history is open and null otherwise: a
 * new unit starts over with its last hour, loaded at once, or with the period of `opening`, a
 * followed deep link of that unit (history-url.ts; a new link object opens its period again).
 */
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import type { MapUnit, Position } from '../../../../shared/schemas/tracking';
import { ApiError } from '../../app/api-client';
import { usePositions } from './api/positions';
import type { HistoryLink } from './history-url';
import {
  isAtEnd,
  openPlayback,
  playbackReducer,
  pointAt,
  type PeriodChoice,
  type PeriodErrors,
  type PeriodPreset,
  type PlaybackPoint,
  type PositionsQuery,
  type SpeedFactor,
  seek as seekCursor,
} from './playback';
import { findStops, type Stop } from './stops';

export interface HistoryPlayback {
  unit: MapUnit | null;
  /** The period form: the chosen preset and the `datetime-local` values of From and To. */
  period: PeriodChoice;
  /** Message keys on From and To: the browser's check of the period, else the server's 422. */
  periodErrors: PeriodErrors;
  choosePreset(preset: PeriodPreset): void;
  /** Typing a date switches the period to custom. */
  setFrom(value: string): void;
  setTo(value: string): void;
  /** Asks for the chosen period (a quick pick is taken anew at this moment). */
  load(): void;
  /** The period asked for (ISO), null before the first load. */
  requested: PositionsQuery | null;
  status: 'idle' | 'loading' | 'error' | 'ready';
  /** The failure while status is 'error' (show it with errorMessage()). */
  error: unknown;
  /** The route, oldest first. */
  positions: readonly Position[];
  /** Epoch ms of each position. */
  times: readonly number[];
  /** Only the earliest positions of the period came (PositionsTruncated). */
  truncated: boolean;
  /** The point playback has reached. */
  index: number;
  /** The playback clock, epoch ms (between point `index` and the next while playing). */
  time: number;
  /** The point the speed chart is pointed at (hovered), shown instead of playback's; null when none. */
  previewIndex: number | null;
  /** Shows point `index` on the map and in the readings without moving playback; null ends it. */
  preview(index: number | null): void;
  /** Where the marker is drawn and what the panel shows (the previewed point, else playback's), null without positions. */
  current: PlaybackPoint | null;
  /** Where the unit stood for at least its time till parked (stops.ts). */
  stops: readonly Stop[];
  /** The stop whose details are open on the map, by its place in `stops`; null when none is. */
  openStop: number | null;
  setOpenStop(stop: number | null): void;
  playing: boolean;
  atEnd: boolean;
  speed: SpeedFactor;
  play(): void;
  pause(): void;
  /** Jumps to point `index` (the scrub slider). */
  seek(index: number): void;
  setSpeed(speed: SpeedFactor): void;
}

/** React state is committed at most this often while playing; the clock itself advances by real elapsed time. */
const FRAME_MS = 33;
/** A frame delayed longer than this (a hidden tab) counts as this long, so playback does not leap. */
const MAX_FRAME_MS = 250;

const NO_POSITIONS: readonly Position[] = [];

export function useHistoryPlayback(unit: MapUnit | null, opening: HistoryLink | null = null): HistoryPlayback {
  const imei = unit?.imei ?? null;
  const linkFor = (target: string | null) => (opening && opening.imei === target ? opening : null);
  const [state, dispatch] = useReducer(playbackReducer, imei, (first) => openPlayback(first, new Date(), undefined, linkFor(first)));
  const [openedWith, setOpenedWith] = useState(opening);
  // Another unit (or closing the history) starts over, and so does a new link of this unit: adjusted
  // while rendering, as React advises for state that follows a prop, so no frame shows the old route.
  const newLink = opening !== openedWith;
  if (newLink) setOpenedWith(opening);
  if (state.imei !== imei || (newLink && linkFor(imei))) dispatch({ type: 'open', imei, now: new Date(), linked: linkFor(imei) });

  const query = usePositions(state.imei, state.request);
  const answer = query.data;
  const positions = answer?.positions ?? NO_POSITIONS;
  const times = useMemo(() => positions.map((p) => Date.parse(p.ts)), [positions]);

  const [seen, setSeen] = useState<readonly number[]>(times);
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [openStop, setOpenStop] = useState<number | null>(null);
  if (seen !== times) {
    setSeen(times);
    setPreviewIndex(null);
    setOpenStop(null);
    dispatch({ type: 'loaded', times });
  }
  const stops = useMemo(() => findStops(positions), [positions]);

  const { playing } = state;
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    let last = performance.now();
    let pending = 0;
    const step = (now: number) => {
      pending += Math.min(now - last, MAX_FRAME_MS);
      last = now;
      if (pending >= FRAME_MS) {
        dispatch({ type: 'tick', times, wallMs: pending });
        pending = 0;
      }
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [playing, times]);

  const serverErrors = useMemo(() => fieldErrorsOf(query.error), [query.error]);
  const hasClientErrors = Object.keys(state.errors).length > 0;

  const choosePreset = useCallback((preset: PeriodPreset) => dispatch({ type: 'preset', preset, now: new Date() }), []);
  const setFrom = useCallback((value: string) => dispatch({ type: 'edit', field: 'from', value }), []);
  const setTo = useCallback((value: string) => dispatch({ type: 'edit', field: 'to', value }), []);
  const load = useCallback(() => {
    dispatch({ type: 'load', now: new Date() });
  }, []);
  const play = useCallback(() => dispatch({ type: 'play', times }), [times]);
  const pause = useCallback(() => dispatch({ type: 'pause' }), []);
  const seek = useCallback((index: number) => dispatch({ type: 'seek', times, index }), [times]);
  const setSpeed = useCallback((speed: SpeedFactor) => dispatch({ type: 'speed', speed }), []);
  const preview = useCallback((index: number | null) => setPreviewIndex(index === null || times.length === 0 ? null : seekCursor(times, index).index), [times]);

  return {
    unit,
    period: state.choice,
    periodErrors: hasClientErrors ? state.errors : serverErrors,
    choosePreset,
    setFrom,
    setTo,
    load,
    requested: state.request,
    status: state.request === null ? 'idle' : query.isPending ? 'loading' : query.isError ? 'error' : 'ready',
    error: query.error,
    positions,
    times,
    truncated: answer?.truncated ?? false,
    index: state.cursor.index,
    time: state.cursor.time,
    previewIndex,
    preview,
    current: pointAt(positions, times, previewIndex === null ? state.cursor : seekCursor(times, previewIndex)),
    stops,
    openStop,
    setOpenStop,
    playing: state.playing,
    atEnd: times.length > 0 && isAtEnd(times, state.cursor),
    speed: state.speed,
    play,
    pause,
    seek,
    setSpeed,
  };
}

/** The server's 422 keys on from and to. */
function fieldErrorsOf(error: unknown): PeriodErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: PeriodErrors = {};
  for (const field of ['from', 'to'] as const) {
    const key = error.fieldErrors[field]?.[0];
    if (key) errors[field] = key;
  }
  return errors;
}
