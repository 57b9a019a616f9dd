// @vitest-environment happy-dom
// Home, nickname and invitation flows against a fake fetch and a fake WebSocket.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app';
import { initI18n } from '../i18n';
import { FakeWs } from '../test/fake-ws';
import { loadPrefs, savePrefs } from '../prefs';


type Route = (method: string, body: any) => [number, unknown];
let routes: Record<string, Route>;
let calls: Array<[string, string, unknown]>;

const flush = () => new Promise((r) => setTimeout(r, 40));
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);

async function start(path: string) {
  document.body.innerHTML = '<div id="root"></div>';
  history.replaceState(null, '', path);
  new App(document.getElementById('root')!);
  await flush();
  await flush();
}

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  FakeWs.all = [];
  calls = [];
  localStorage.clear();
  routes = { 'GET /api/me': () => [200, { id: 'p1', nickname: 'Somchai' }] };
  vi.stubGlobal('WebSocket', FakeWs);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push([method, url, body]);
      const route = routes[`${method} ${url}`];
      const [status, data] = route ? route(method, body) : [404, { error: 'not-found', message: 'no' }];
      return new Response(JSON.stringify(data), { status });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('home', () => {
  it('starts a game against the computer with the chosen level and colour', async () => {
    routes['POST /api/games'] = () => [200, { id: 'g9' }];
    await start('/');
    byTestId('variant-xiangqi')!.click();
    (byTestId('level-hard') as HTMLInputElement).click();
    (byTestId('side-second') as HTMLInputElement).click();
    await flush();
    byTestId('play-ai')!.click();
    await flush();
    expect(calls).toContainEqual(['POST', '/api/games', { variant: 'xiangqi', mode: 'ai', level: 'hard', side: 'second' }]);
    expect(location.pathname).toBe('/game/g9');
    expect(FakeWs.all.some((w) => w.url.endsWith('/ws/game/g9'))).toBe(true);
    // The choices are remembered.
    expect(loadPrefs()).toMatchObject({ variant: 'xiangqi', level: 'hard', side: 'second' });
  });

  it('creates a friend link and shows it, waiting, on the game page', async () => {
    routes['POST /api/invitations'] = () => [200, { token: 'tok', gameId: 'g5', url: '/invite/tok', expiresAt: '2026-11-30T13:00:00Z' }];
    await start('/');
    byTestId('play-friend')!.click();
    await flush();
    expect(location.pathname).toBe('/game/g5');
    const ws = FakeWs.all.find((w) => w.url.endsWith('/ws/game/g5'))!;
    ws.open();
    ws.push({
      t: 'full',
      v: 1,
      d: {
        id: 'g5', variant: 'makruk', mode: 'friend',
        players: { first: { id: 'p1', name: 'Somchai', ai: null, connected: true }, second: { id: null, name: '', ai: null, connected: false } },
        you: 'first', initialFen: '8/8/8/8/8/8/8/8 w', fen: '8/8/8/8/8/8/8/8 w', turn: 'first', ply: 0, moves: [], legal: [],
        check: false, counters: null, clock: null, offers: { draw: null, takeback: null, rematch: null }, result: null,
      },
    });
    await flush();
    expect((byTestId('invite-url') as HTMLInputElement).value).toBe(`${location.origin}/invite/tok`);
    expect(byTestId('invite-panel')?.textContent).toContain('Waiting for your friend');
  });

  it('queues for a random opponent, and cancels', async () => {
    await start('/');
    byTestId('seek')!.click();
    const lobby = FakeWs.all.find((w) => w.url.endsWith('/ws/lobby'))!;
    lobby.open();
    expect(lobby.sent).toEqual([{ t: 'queue', d: { variant: 'makruk' } }]);
    lobby.push({ t: 'queued', d: { variant: 'makruk' } });
    await flush();
    expect(document.body.textContent).toContain('Looking for an opponent');
    byTestId('seek-cancel')!.click();
    expect(lobby.sent).toContainEqual({ t: 'cancel', d: {} });
    await flush();
    expect(byTestId('seek')).not.toBeNull();
  });

  it('opens the game when paired', async () => {
    await start('/');
    byTestId('seek')!.click();
    const lobby = FakeWs.all.find((w) => w.url.endsWith('/ws/lobby'))!;
    lobby.open();
    lobby.push({ t: 'paired', d: { gameId: 'g77' } });
    await flush();
    expect(location.pathname).toBe('/game/g77');
  });
});

describe('nickname', () => {
  it('asks on the first visit and creates the session', async () => {
    routes['GET /api/me'] = () => [401, { error: 'unauthorized', message: '' }];
    routes['POST /api/session'] = (_m, b) => [200, { id: 'p2', nickname: b.nickname }];
    await start('/');
    const input = byTestId('nickname-input') as HTMLInputElement;
    expect(input).not.toBeNull();
    input.value = 'x';
    input.dispatchEvent(new Event('input'));
    input.form!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flush();
    expect(document.body.textContent).toContain('Use 2 to 20 letters');
    input.value = 'สมชาย';
    input.dispatchEvent(new Event('input'));
    input.form!.dispatchEvent(new Event('submit', { cancelable: true }));
    await flush();
    expect(calls).toContainEqual(['POST', '/api/session', { nickname: 'สมชาย' }]);
    expect(byTestId('nickname-input')).toBeNull();
    expect(byTestId('nickname')?.getAttribute('aria-label')).toBe('Playing as สมชาย');
    expect(byTestId('nickname')?.querySelector('.short')?.textContent).toBe('สมชาย');
  });
});

describe('invitation', () => {
  it('accepts and opens the game', async () => {
    routes['POST /api/invitations/tok/accept'] = () => [200, { gameId: 'g5' }];
    await start('/invite/tok');
    expect(location.pathname).toBe('/game/g5');
  });
  it('says when the link has expired', async () => {
    routes['POST /api/invitations/old/accept'] = () => [410, { error: 'expired', message: 'gone' }];
    await start('/invite/old');
    expect(byTestId('invite')?.textContent).toContain('This invitation has expired.');
  });
});

describe('settings', () => {
  it('remembers the Xiangqi piece style', async () => {
    await start('/rules/xiangqi');
    (byTestId('style-pictures') as HTMLInputElement).click();
    expect(loadPrefs().pieceStyle).toBe('pictures');
    savePrefs({ ...loadPrefs(), pieceStyle: 'characters' });
    expect(loadPrefs().pieceStyle).toBe('characters');
  });
  it('switches language and remembers it', async () => {
    await start('/rules/makruk');
    await vi.waitFor(() => expect(document.querySelectorAll('figure.diagram svg').length).toBeGreaterThan(5), { timeout: 3000 });
    expect(document.querySelector('.rules table')?.textContent).toContain('two Rua');
    const select = byTestId('language') as HTMLSelectElement;
    select.value = 'th';
    select.dispatchEvent(new Event('change'));
    await vi.waitFor(() => expect(document.querySelector('h1')?.textContent).toBe('กติกาหมากรุกไทย'), { timeout: 3000 });
    expect(localStorage.getItem('ttakji.lang')).toBe('th');
    expect(document.documentElement.lang).toBe('th');
    // The Thai rules text loads on demand.
    await vi.waitFor(() => expect(document.querySelector('.rules .intro')?.textContent).toContain('หมากรุกไทยเป็นหมากรุกดั้งเดิมของไทย'), {
      timeout: 3000,
    });
    expect(document.querySelector('.rules .note')).toBeNull();
  });
});
