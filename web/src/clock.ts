//! Clock display as a pure function of the protocol's clock figures and the time elapsed since
//! they were sent: main time, then byo-yomi periods (30 s each) with their countdown.

import type { ClockSide } from './net/protocol';

export const PERIOD_MS = 30_000;
/** Under this, the countdown is shown in red and with tenths. */
export const LOW_MS = 10_000;

export interface ClockShow {
  phase: 'main' | 'byoyomi' | 'flagged';
  /** Time left to show: main time, or the running period's countdown. */
  ms: number;
  /** Byo-yomi periods left, the running one included. */
  periods: number;
  /** The player is about to lose on time. */
  low: boolean;
  /** `4:59`, `0:27`, `0:08.4`. */
  text: string;
}

/** Time left, `elapsedMs` after the figures were sent (0 when this clock is not running). */
export function clockShow(c: ClockSide, elapsedMs: number, periodLength = PERIOD_MS): ClockShow {
  const e = Math.max(0, elapsedMs);
  if (c.mainMs - e > 0) {
    const ms = c.mainMs - e;
    const low = c.periods <= 0 && ms < LOW_MS;
    return { phase: 'main', ms, periods: c.periods, low, text: formatMs(ms, low) };
  }
  let periods = c.periods;
  let left = c.periodMs - (e - Math.max(0, c.mainMs));
  while (left <= 0 && periods > 1) {
    periods -= 1;
    left += periodLength;
  }
  if (periods <= 0 || left <= 0) return { phase: 'flagged', ms: 0, periods: 0, low: true, text: formatMs(0, true) };
  const low = periods === 1 && left < LOW_MS;
  return { phase: 'byoyomi', ms: left, periods, low, text: formatMs(left, low) };
}

/** `m:ss`, with tenths when `tenths` (time is rounded up so 0:00 means really none left). */
export function formatMs(ms: number, tenths = false): string {
  const t = Math.max(0, ms);
  if (tenths) {
    const d = Math.ceil(t / 100);
    const s = Math.floor(d / 10);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.${d % 10}`;
  }
  const s = Math.ceil(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
