import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWs as FakeSocket } from '../test/fake-ws';
import { Socket, wsUrl } from './socket';

const last = () => FakeSocket.all[FakeSocket.all.length - 1]!;

function make(handlers: Record<string, (d: any) => void> = {}, states: string[] = []) {
  return new Socket({
    url: 'ws://x/ws/game/g1',
    versioned: true,
    handlers,
    onState: (s) => states.push(s),
    create: (url) => new FakeSocket(url),
    random: () => 0.5,
  }).connect();
}

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('Socket', () => {
  it('dispatches through the handler map and tracks the version', () => {
    const got: string[] = [];
    const s = make({ full: () => got.push('full'), move: (d) => got.push(d.uci) });
    last().open();
    last().push({ t: 'full', d: {}, v: 4 });
    last().push({ t: 'move', d: { uci: 'e3e4' }, v: 5 });
    expect(got).toEqual(['full', 'e3e4']);
    expect(s.version).toBe(5);
  });

  it('drops events it has already applied', () => {
    const got: string[] = [];
    make({ full: () => {}, move: (d) => got.push(d.uci) });
    last().open();
    last().push({ t: 'full', d: {}, v: 4 });
    last().push({ t: 'move', d: { uci: 'a' }, v: 5 });
    last().push({ t: 'move', d: { uci: 'a' }, v: 5 });
    expect(got).toEqual(['a']);
  });

  it('reconnects with ?v= on a gap instead of applying out of order', () => {
    const got: string[] = [];
    const s = make({ full: () => {}, move: (d) => got.push(d.uci) });
    last().open();
    last().push({ t: 'full', d: {}, v: 4 });
    last().push({ t: 'move', d: { uci: 'late' }, v: 7 });
    expect(got).toEqual([]);
    expect(s.state).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(last().url).toBe('ws://x/ws/game/g1?v=4');
  });

  it('reconnects with growing, capped backoff and reports its state', () => {
    const states: string[] = [];
    const s = make({}, states);
    expect(FakeSocket.all).toHaveLength(1);
    expect(FakeSocket.all[0]!.url).toBe('ws://x/ws/game/g1');
    last().drop();
    expect(s.state).toBe('reconnecting');
    expect([0, 1, 2, 3, 10].map((n) => s.backoff(n))).toEqual([375, 750, 1500, 3000, 11250]);
    vi.advanceTimersByTime(374);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    last().drop();
    vi.advanceTimersByTime(749);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    last().open();
    expect(s.state).toBe('open');
    expect(states).toEqual(['reconnecting', 'open']);
    // After a success the backoff starts again from the shortest delay.
    last().drop();
    vi.advanceTimersByTime(375);
    expect(FakeSocket.all).toHaveLength(4);
  });

  it('sends moves with ack ids and forgets them when acknowledged', () => {
    const s = make();
    last().open();
    const id = s.move('e3e4', 'start');
    expect(last().sent).toEqual([{ t: 'move', d: { uci: 'e3e4', id, count: 'start' } }]);
    expect(s.pending.has(id)).toBe(true);
    last().push({ t: 'ack', d: { id } });
    expect(s.pending.size).toBe(0);
    const id2 = s.move('d3d4');
    expect(id2).toBe(id + 1);
    last().push({ t: 'error', d: { error: 'illegal', message: 'no', id: id2 } });
    expect(s.pending.size).toBe(0);
  });

  it('queues messages while disconnected and sends them once open', () => {
    const s = make();
    s.send('resign');
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent).toEqual([{ t: 'resign', d: {} }]);
  });

  it('pings, and replaces a connection that went silent', () => {
    const s = make();
    last().open();
    vi.advanceTimersByTime(10_000);
    expect(last().sent).toContainEqual({ t: 'ping', d: {} });
    last().push({ t: 'pong', d: {} });
    expect(s.lagMs).not.toBeNull();
    vi.advanceTimersByTime(25_000);
    expect(s.state).toBe('reconnecting');
    expect(FakeSocket.all[0]!.closed).toBe(true);
  });

  it('stays closed after close()', () => {
    const s = make();
    last().open();
    s.close();
    expect(s.state).toBe('closed');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('ignores messages from a replaced connection and malformed data', () => {
    const got: unknown[] = [];
    make({ x: (d) => got.push(d) });
    const old = last();
    old.open();
    old.drop();
    old.push({ t: 'x', d: 1 });
    vi.advanceTimersByTime(1_000);
    last().open();
    last().onmessage?.({ data: 'not json' });
    last().push({ t: 'x', d: 2 });
    expect(got).toEqual([2]);
  });
});

describe('wsUrl', () => {
  it('follows the page’s scheme', () => {
    expect(wsUrl('/ws/lobby', { protocol: 'https:', host: 'a.b' })).toBe('wss://a.b/ws/lobby');
    expect(wsUrl('/ws/lobby', { protocol: 'http:', host: 'localhost:8080' })).toBe('ws://localhost:8080/ws/lobby');
  });
});
