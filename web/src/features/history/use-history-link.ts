/**
 * The map page's side of the history deep link (history-url.ts describes the address): follows a
 * link once the user's units are known, and keeps the address in step with the history on show,
 * replacing the browser's history entry, so that a reload or a copied address shows the same route.
 *
 * The router hands a changed address to React inside a transition, so a click can render before it:
 * `params` may lag the address bar. Both effects therefore act on the address as it is now
 * (`window.location`): a link the page itself has since replaced is never followed again (closing
 * a history right after changing its period would otherwise reopen it with that period), and an
 * address the router has not handed over yet is never written over with what is on show (back or
 * forward right after closing a history would otherwise lose its link).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { readHistoryLink, sameLink, withHistoryLink, type HistoryLink } from './history-url';
import type { PositionsQuery } from './playback';

export interface HistoryLinkOptions {
  /** The user's units are known: a link can be followed, or found to name none of them. */
  ready: boolean;
  hasUnit(imei: string): boolean;
  /** Opens the history of the link's unit; the page hands the link to useHistoryPlayback. */
  open(link: HistoryLink): void;
  /**
   * The history on show: its unit and the period asked for (null while the form holds a period that
   * was refused); null while no history is open.
   */
  shown: { imei: string; period: PositionsQuery | null } | null;
}

export interface HistoryLinkState {
  /** The last link named a unit the user does not have. */
  missing: boolean;
  dismissMissing(): void;
}

/** The link in the address bar now, which may be ahead of the router's `params`. */
const addressNow = (): URLSearchParams => new URLSearchParams(window.location.search);

export function useHistoryLink({ ready, hasUnit, open, shown }: HistoryLinkOptions): HistoryLinkState {
  const [params, setParams] = useSearchParams();
  const link = useMemo(() => readHistoryLink(params), [params]);
  const [missing, setMissing] = useState(false);
  /** The link last followed or written: the address holding it again is nothing new. */
  const handled = useRef<HistoryLink | null>(null);
  /**
   * A link being opened, and the history on show when it was (`before`): the address waits until
   * something else is on show. Waiting for the link's unit alone let a link to the unit already
   * shown, with another period, be overwritten at once by the period still on show (and kept so
   * when the new period is refused).
   */
  const opening = useRef<{ link: HistoryLink; before: string } | null>(null);
  const shownImei = shown?.imei ?? null;
  const shownFrom = shown?.period?.from ?? null;
  const shownTo = shown?.period?.to ?? null;
  const shownKey = shownImei === null ? '' : `${shownImei} ${shownFrom ?? ''} ${shownTo ?? ''}`;

  useEffect(() => {
    if (!ready || !link || sameLink(link, handled.current)) return;
    // An address already replaced (by this page or by the user): the render that brings the new one follows.
    if (!sameLink(link, readHistoryLink(addressNow()))) return;
    handled.current = link;
    if (sameLink(link, shownImei === null ? null : { imei: shownImei, from: shownFrom, to: shownTo })) return;
    if (hasUnit(link.imei)) {
      opening.current = { link, before: shownKey };
      setMissing(false);
      open(link);
    } else {
      setMissing(true);
    }
  }, [ready, link, shownImei, shownFrom, shownTo, shownKey, hasUnit, open]);

  useEffect(() => {
    if (!ready) return;
    const waiting = opening.current;
    if (waiting) {
      if (shownKey === waiting.before) return;
      opening.current = null;
    }
    // A refused period: the address keeps what was asked for, the form says what is wrong with it.
    if (shownImei !== null && shownFrom === null) return;
    const next: HistoryLink | null = shownImei === null ? null : { imei: shownImei, from: shownFrom, to: shownTo };
    const address = addressNow();
    const inAddress = readHistoryLink(address);
    // An address the router has yet to hand over that this page did not write (back, forward, a
    // link followed) is newer than what is on show: the first effect follows it when it arrives.
    if (!sameLink(inAddress, link) && !sameLink(inAddress, handled.current)) return;
    if (sameLink(next, inAddress)) return;
    handled.current = next;
    setParams(withHistoryLink(address, next), { replace: true });
  }, [ready, link, shownImei, shownFrom, shownTo, shownKey, setParams]);

  const dismissMissing = useCallback(() => setMissing(false), []);
  return { missing, dismissMissing };
}
