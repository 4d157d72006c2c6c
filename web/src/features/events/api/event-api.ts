/**
 * Events (docs/api.md Events): a unit's or all visible units' events of a period, newest first.
 * The live channel's `event` messages refresh what is cached (`useLiveEventUpdates`).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { routes } from '../../../../../shared/routes';
import { eventListSchema, type EventList, type EventType } from '../../../../../shared/schemas/events';
import type { LiveEventMessage, LiveMessage } from '../../../../../shared/schemas/live';
import { apiRequest } from '../../../app/api-client';
import { useLiveMessages, useLiveStatus } from '../../../app/live/use-live';

export interface EventsQuery {
  imei?: string | undefined;
  type?: EventType | undefined;
  /** ISO with offset. */
  from: string;
  to: string;
}

export const EVENTS_KEY = 'events';
export const eventsKey = (q: EventsQuery) => [EVENTS_KEY, q.imei ?? null, q.type ?? null, q.from, q.to] as const;

export function fetchEvents(q: EventsQuery, signal?: AbortSignal): Promise<EventList> {
  const params = new URLSearchParams({ from: q.from, to: q.to });
  if (q.imei) params.set('imei', q.imei);
  if (q.type) params.set('type', q.type);
  return apiRequest('GET', `${routes.getEvents.path}?${params.toString()}`, signal ? { schema: eventListSchema, signal } : { schema: eventListSchema });
}

export function useEvents(q: EventsQuery) {
  return useQuery({ queryKey: eventsKey(q), queryFn: ({ signal }) => fetchEvents(q, signal), staleTime: 30_000 });
}

/**
 * Keeps cached event lists current: a live event refetches the lists (its period may end "now"),
 * and so does the channel coming back (what was missed while it was down is not replayed).
 * `onEvent` hears each live event, for an announcement.
 */
export function useLiveEventUpdates(onEvent?: (message: LiveEventMessage) => void): void {
  const queryClient = useQueryClient();
  const status = useLiveStatus();
  useEffect(() => {
    if (status === 'online') void queryClient.invalidateQueries({ queryKey: [EVENTS_KEY] });
  }, [status, queryClient]);
  useLiveMessages(
    useCallback(
      (message: LiveMessage) => {
        if (message.type !== 'event') return;
        void queryClient.invalidateQueries({ queryKey: [EVENTS_KEY] });
        onEvent?.(message);
      },
      [queryClient, onEvent],
    ),
  );
}
