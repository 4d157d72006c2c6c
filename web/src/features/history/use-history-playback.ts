/**
 * History playback of one unit, shared by the side panel (HistoryPanel) and the map (HistoryLayers).
 * Pass the unit while its history is open and null otherwise: a new unit starts over with its last
 * hour, loaded at once.
 */
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import type { Position, RealtimeUnit } from '../../../../shared/schemas/tracking';
import { ApiError } from '../../app/api-client';
import { usePositions } from './api/positions';
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
} from './playback';

export interface HistoryPlayback {
  unit: RealtimeUnit | null;
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
  /** Only the earliest positions of the period came (PositionsTruncated). */
  truncated: boolean;
  /** The point playback has reached. */
  index: number;
  /** Where the marker is drawn and what the panel shows, null without positions. */
  current: PlaybackPoint | null;
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

export function useHistoryPlayback(unit: RealtimeUnit | null): HistoryPlayback {
  const imei = unit?.imei ?? null;
  const [state, dispatch] = useReducer(playbackReducer, imei, (first) => openPlayback(first, new Date()));
  // Another unit (or closing the history) starts over: adjusted while rendering, as React advises
  // for state that follows a prop, so no frame shows the old unit's route.
  if (state.imei !== imei) dispatch({ type: 'open', imei, now: new Date() });

  const query = usePositions(state.imei, state.request);
  const answer = query.data;
  const positions = answer?.positions ?? NO_POSITIONS;
  const times = useMemo(() => positions.map((p) => Date.parse(p.ts)), [positions]);

  const [seen, setSeen] = useState<readonly number[]>(times);
  if (seen !== times) {
    setSeen(times);
    dispatch({ type: 'loaded', times });
  }

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
    truncated: answer?.truncated ?? false,
    index: state.cursor.index,
    current: pointAt(positions, times, state.cursor),
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
