// @vitest-environment happy-dom
// The game page driven through a fake WebSocket and a fake fetch: what the protocol says is
// what the page shows, and what the player does is what goes on the wire.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app';
import { initI18n } from '../i18n';
import { FakeWs } from '../test/fake-ws';
import type { GameState } from '../net/protocol';


const START = 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1';

function state(over: Partial<GameState> = {}): GameState {
  return {
    id: 'g1',
    variant: 'makruk',
    mode: 'friend',
    players: {
      first: { id: 1, name: 'Somchai', ai: null, connected: true },
      second: { id: 2, name: 'Mei', ai: null, connected: true },
    },
    you: 'first',
    initialFen: START,
    fen: START,
    turn: 'first',
    ply: 0,
    moves: [],
    legal: ['e3e4', 'b1d2'],
    check: false,
    counters: { canStartCount: false, canStopCount: false, pliesBeforeMoveLimit: 400 },
    clock: {
      first: { mainMs: 300_000, periods: 3, periodMs: 30_000 },
      second: { mainMs: 300_000, periods: 3, periodMs: 30_000 },
      running: 'first',
    },
    offers: { draw: null, takeback: null, rematch: null },
    result: null,
    ...over,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 40));
const $ = (sel: string) => document.querySelector<HTMLElement>(sel);
const byTestId = (id: string) => $(`[data-testid="${id}"]`);
const ws = () => FakeWs.all.find((w) => w.url.includes('/ws/game/'))!;
const activate = (el: HTMLElement | null) => el!.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(async () => {
  FakeWs.all = [];
  vi.stubGlobal('WebSocket', FakeWs);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/me'
        ? new Response(JSON.stringify({ id: 'p1', nickname: 'Somchai' }), { status: 200 })
        : new Response('{}', { status: 404 }),
    ),
  );
  document.body.innerHTML = '<div id="root"></div>';
  history.replaceState(null, '', '/game/g1');
  new App(document.getElementById('root')!);
  await flush();
  ws().open();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('game page', () => {
  it('connects to the game socket and shows the loading state until `full`', async () => {
    expect(ws().url).toMatch(/\/ws\/game\/g1$/);
    expect(document.body.textContent).toContain('Loading the game');
    ws().push({ t: 'full', d: state(), v: 1 });
    await flush();
    expect(byTestId('board')).not.toBeNull();
    expect(byTestId('turn')?.textContent).toBe('Your turn');
    expect(byTestId('clock-first')?.textContent).toContain('5:00');
    expect(byTestId('clock-first')?.textContent).toContain('3 periods');
    expect(byTestId('player-bottom')?.textContent).toContain('Somchai');
    expect(document.title).toBe('● Your turn · Makruk · Ttakji');
  });

  it('sends a clicked move with an ack id and shows it at once', async () => {
    ws().push({ t: 'full', d: state(), v: 1 });
    await flush();
    activate(byTestId('sq-e3'));
    await flush();
    activate(byTestId('sq-e4'));
    await flush();
    expect(ws().sent).toContainEqual({ t: 'move', d: { uci: 'e3e4', id: 1 } });
    expect(byTestId('sq-e4')?.getAttribute('aria-label')).toBe('e4, White Bia, last move');
    const after = state({
      fen: 'rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1',
      turn: 'second',
      ply: 1,
      moves: [{ uci: 'e3e4', san: 'e4' }],
      legal: ['e6e5'],
    });
    ws().push({ t: 'ack', d: { id: 1 } });
    // As the server sends it: the event's state has no move list and no `you`; the page
    // appends the move and keeps its seat.
    const slim: Record<string, unknown> = { ...after };
    delete slim.moves;
    delete slim.you;
    ws().push({ t: 'move', d: { uci: 'e3e4', san: 'e4', ply: 1, fen: after.fen, by: 'first', state: slim }, v: 2 });
    await flush();
    expect(byTestId('moves')?.textContent).toContain('e4');
    expect(byTestId('turn')?.textContent).toBe('Mei to move');
    expect(byTestId('typed-move')).not.toBeNull();
  });

  it('shows Start count exactly when allowed and sends it with the next move', async () => {
    ws().push({ t: 'full', d: state(), v: 1 });
    await flush();
    expect(byTestId('start-count')).toBeNull();
    expect(byTestId('stop-count')).toBeNull();
    ws().push({ t: 'full', d: state({ counters: { canStartCount: true, canStopCount: false } }), v: 2 });
    await flush();
    byTestId('start-count')!.click();
    await flush();
    expect(byTestId('start-count')?.getAttribute('aria-pressed')).toBe('true');
    const input = byTestId('typed-move') as HTMLInputElement;
    input.value = 'Nd2';
    input.dispatchEvent(new Event('input'));
    input.form!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flush();
    expect(ws().sent).toContainEqual({ t: 'move', d: { uci: 'b1d2', id: 1, count: 'start' } });
  });

  it('shows the Makruk count under the board', async () => {
    ws().push({
      t: 'full',
      d: state({ counters: { makruk: { kind: 'board', side: 'first', count: 12, limit: 64, movesLeft: 52 }, canStopCount: true } }),
      v: 1,
    });
    await flush();
    expect(byTestId('counters')?.textContent).toContain('Board count: 12 of 64');
    expect(byTestId('counters')?.textContent).toContain('52 moves left');
    expect(byTestId('stop-count')).not.toBeNull();
  });

  it('resigns only after confirmation', async () => {
    ws().push({ t: 'full', d: state(), v: 1 });
    await flush();
    expect(byTestId('takeback')).toBeNull(); // only against the computer
    byTestId('draw-offer-btn')!.click();
    expect(ws().sent).toContainEqual({ t: 'draw', d: { action: 'offer' } });
    byTestId('resign')!.click();
    await flush();
    expect(ws().sent.filter((m) => m.t === 'resign')).toHaveLength(0);
    byTestId('resign-yes')!.click();
    expect(ws().sent).toContainEqual({ t: 'resign', d: {} });
    ws().push({ t: 'end', d: state({ result: { result: '0-1', winner: 'second', reason: 'resignation' }, legal: [] }), v: 2 });
    await flush();
    expect(byTestId('result')?.textContent).toBe('You lost — by resignation');
    expect(byTestId('rematch')).not.toBeNull();
  });

  it('answers a draw offer and shows a disconnected opponent', async () => {
    ws().push({ t: 'full', d: state(), v: 1 });
    ws().push({ t: 'offer', d: { kind: 'draw', by: 'second' }, v: 2 });
    ws().push({ t: 'presence', d: { first: true, second: false } });
    await flush();
    expect(byTestId('draw-offer-btn')).toBeNull(); // an offer is pending: answer it instead
    expect(byTestId('opponent-gone')?.textContent).toContain('Mei');
    byTestId('draw-accept')!.click();
    expect(ws().sent).toContainEqual({ t: 'draw', d: { action: 'accept' } });
  });

  it('offers takeback against the computer, and no clock', async () => {
    ws().push({
      t: 'full',
      d: state({
        mode: 'ai',
        clock: null,
        moves: [{ uci: 'e3e4', san: 'e4' }, { uci: 'e6e5', san: 'e5' }],
        players: { ...state().players, second: { id: null, name: 'AI', ai: 'easy', connected: true } },
      }),
      v: 1,
    });
    await flush();
    expect(byTestId('clock-first')).toBeNull();
    byTestId('takeback')!.click();
    expect(ws().sent).toContainEqual({ t: 'takeback', d: {} });
    expect(byTestId('player-top')?.textContent).toContain('Computer (Easy)');
  });

  it('is read-only for spectators', async () => {
    ws().push({ t: 'full', d: state({ you: null }), v: 1 });
    await flush();
    expect(byTestId('resign')).toBeNull();
    expect(byTestId('typed-move')).toBeNull();
    activate(byTestId('sq-e3'));
    await flush();
    expect(byTestId('sq-e3')?.getAttribute('aria-pressed')).toBe('false');
  });

  it('says so when the game does not exist', async () => {
    ws().onclose?.({});
    await flush();
    expect(byTestId('game-missing')?.textContent).toContain('This game does not exist.');
  });

  it('announces the last move for screen readers', async () => {
    const fen = 'rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 3';
    ws().push({ t: 'full', d: state({ moves: [{ uci: 'e3e4', san: 'e4' }, { uci: 'e6e5', san: 'e5' }], ply: 2, fen }), v: 1 });
    await flush();
    expect(byTestId('last-move')?.textContent).toBe('Black Bia, e6 to e5');
    expect(byTestId('last-move')?.getAttribute('aria-live')).toBe('polite');
  });

  it('resyncs from the last version after a drop', async () => {
    ws().push({ t: 'full', d: state(), v: 7 });
    await flush();
    const first = ws();
    first.onclose?.({});
    await new Promise((r) => setTimeout(r, 800));
    const second = FakeWs.all.filter((w) => w.url.includes('/ws/game/')).at(-1)!;
    expect(second).not.toBe(first);
    expect(second.url).toMatch(/\?v=7$/);
    await flush();
    expect(byTestId('conn')?.textContent).toBe('Reconnecting…');
  });
});
