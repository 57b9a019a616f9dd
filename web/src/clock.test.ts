import { describe, expect, it } from 'vitest';
import { clockShow, formatMs } from './clock';

const fresh = { mainMs: 300_000, periods: 3, periodMs: 30_000 };

describe('clockShow', () => {
  it('shows main time counting down', () => {
    expect(clockShow(fresh, 0)).toMatchObject({ phase: 'main', text: '5:00', periods: 3, low: false });
    expect(clockShow(fresh, 1_500)).toMatchObject({ phase: 'main', text: '4:59' });
  });
  it('does not warn in main time while periods remain', () => {
    expect(clockShow(fresh, 295_000)).toMatchObject({ phase: 'main', low: false, text: '0:05' });
  });
  it('moves into byo-yomi when main time is spent', () => {
    expect(clockShow(fresh, 303_000)).toMatchObject({ phase: 'byoyomi', periods: 3, text: '0:27' });
  });
  it('spends a period for each full 30 s', () => {
    expect(clockShow(fresh, 331_000)).toMatchObject({ phase: 'byoyomi', periods: 2, text: '0:29' });
    expect(clockShow(fresh, 361_000)).toMatchObject({ phase: 'byoyomi', periods: 1, text: '0:29', low: false });
  });
  it('warns in the last period under 10 s, with tenths', () => {
    expect(clockShow(fresh, 381_500)).toMatchObject({ phase: 'byoyomi', periods: 1, low: true, text: '0:08.5' });
  });
  it('flags when everything is spent', () => {
    expect(clockShow(fresh, 390_000)).toMatchObject({ phase: 'flagged', periods: 0, ms: 0, low: true });
  });
  it('starts from a running period as sent by the server', () => {
    const c = { mainMs: 0, periods: 2, periodMs: 12_000 };
    expect(clockShow(c, 0)).toMatchObject({ phase: 'byoyomi', periods: 2, text: '0:12' });
    expect(clockShow(c, 13_000)).toMatchObject({ phase: 'byoyomi', periods: 1, text: '0:29' });
  });
  it('with no periods, warns in main time', () => {
    expect(clockShow({ mainMs: 9_000, periods: 0, periodMs: 0 }, 0)).toMatchObject({ low: true });
    expect(clockShow({ mainMs: 9_000, periods: 0, periodMs: 0 }, 9_000)).toMatchObject({ phase: 'flagged' });
  });
  it('ignores negative elapsed time (clock skew)', () => {
    expect(clockShow(fresh, -5_000).text).toBe('5:00');
  });
});

describe('formatMs', () => {
  it('rounds up so 0:00 means none left', () => {
    expect(formatMs(59_001)).toBe('1:00');
    expect(formatMs(0)).toBe('0:00');
    expect(formatMs(600_000)).toBe('10:00');
    expect(formatMs(1_234, true)).toBe('0:01.3');
  });
});
