/**
 * The live channel for React pages: `useLiveMessages` hears every message of the subscribed topics,
 * `useLiveStatus` tells whether the channel is up. Both keep the one shared channel open while
 * mounted (see live-controller.ts). Only member pages import this module; MQTT.js itself loads
 * with the first connection.
 */
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import type { LiveMessage } from '../../../../shared/schemas/live';
import { getSessionUser, subscribeSession } from '../session';
import { createLiveController, type LiveStatus } from './live-controller';

export type { LiveStatus };

const controller = createLiveController({
  loadTransport: () => import('./mqtt-transport').then((m) => m.mqttTransport),
  token: () => getSessionUser()?.token ?? null,
  onTokenChange: subscribeSession,
});

/** Calls `listener` with every live message while the component is mounted; the latest listener is used, without resubscribing. */
export function useLiveMessages(listener: (message: LiveMessage) => void): void {
  const latest = useRef(listener);
  useLayoutEffect(() => {
    latest.current = listener;
  });
  useEffect(() => controller.listen((message) => latest.current(message)), []);
}

export function useLiveStatus(): LiveStatus {
  useEffect(() => controller.acquire(), []);
  return useSyncExternalStore(controller.subscribeStatus, controller.getStatus);
}
