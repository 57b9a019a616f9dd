// @vitest-environment happy-dom
// Ranked play in the client: sign-in, the ranked choice, leaderboard and profile pages,
// against a fake fetch.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../app';
import { initI18n } from '../i18n';
import { FakeWs } from '../test/fake-ws';

type Route = (body: any) => [number, unknown];
let routes: Record<string, Route>;
let calls: Array<[string, string, unknown]>;

const flush = () => new Promise((r) => setTimeout(r, 40));
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
const all = (id: string) => [...document.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];

async function start(path: string) {
  document.body.innerHTML = '<div id="root"></div>';
  history.replaceState(null, '', path);
  new App(document.getElementById('root')!);
  await flush();
  await flush();
}


const devConfig = { ranked: { available: true, clientId: 'ttakji-dev', dev: true } };

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  calls = [];
  localStorage.clear();
  routes = {
    'GET /api/me': () => [200, { id: 7, nickname: 'Somchai', signedIn: false }],
    'GET /api/config': () => [200, devConfig],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push([method, url, body]);
      const route = routes[`${method} ${url}`];
      const [status, data] = route ? route(body) : [404, { error: 'not_found', message: 'no' }];
      return new Response(status === 204 ? null : JSON.stringify(data), { status });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('sign-in and the ranked choice', () => {
  it('says why ranked play is unavailable without a client id, and loads no Google script', async () => {
    routes['GET /api/config'] = () => [200, { ranked: { available: false, reason: 'no_client_id', dev: false } }];
    await start('/');
    expect(byTestId('ranked-unavailable')?.textContent).toContain('no Google sign-in configured');
    expect(byTestId('rated')).toBeNull();
    expect(byTestId('dev-sign-in')).toBeNull();
    expect(document.querySelector('script[src*="accounts.google.com"]')).toBeNull();
  });

  it('signs in through the dev issuer, then offers a ranked friend game', async () => {
    routes['POST /api/dev-oidc/token'] = () => [200, { credential: 'tok' }];
    routes['POST /api/auth/signin'] = () => [200, { id: 7, nickname: 'Somchai', signedIn: true }];
    routes['POST /api/invitations'] = () => [201, { token: 't', gameId: 'g1', url: '/invite/t', expiresAt: 0 }];
    await start('/');
    expect(byTestId('rated')).toBeNull();
    const input = byTestId('dev-sub') as HTMLInputElement;
    input.value = 'sub-1';
    input.dispatchEvent(new Event('input'));
    byTestId('dev-sign-in')!.click();
    await flush();
    await flush();
    expect(calls).toContainEqual(['POST', '/api/auth/signin', { credential: 'tok' }]);
    expect(byTestId('my-profile')?.getAttribute('href')).toBe('/player/7');
    (byTestId('rated') as HTMLInputElement).click();
    await flush();
    byTestId('play-friend')!.click();
    await flush();
    expect(calls).toContainEqual(['POST', '/api/invitations', { variant: 'makruk', rated: true }]);
  });
});

describe('ranked random opponent', () => {
  beforeEach(() => {
    FakeWs.all = [];
    vi.stubGlobal('WebSocket', FakeWs);
  });

  it('is offered to signed-in players and queues by rating, with no stand-in', async () => {
    routes['GET /api/me'] = () => [200, { id: 7, nickname: 'Somchai', signedIn: true }];
    await start('/');
    (byTestId('seek-ranked') as HTMLInputElement).click();
    await flush();
    byTestId('seek')!.click();
    const lobby = FakeWs.all.find((w) => w.url.endsWith('/ws/lobby'))!;
    lobby.open();
    expect(lobby.sent).toEqual([{ t: 'queue', d: { variant: 'makruk', ranked: true } }]);
    lobby.push({ t: 'queued', d: { variant: 'makruk', ranked: true, rating: 1350, standin: false } });
    await flush();
    const status = byTestId('seek-status')?.textContent ?? '';
    expect(status).toContain('near your rating (1350)');
    expect(status).toContain('No computer stands in');
    expect((byTestId('seek-ranked') as HTMLInputElement).disabled).toBe(true);
    lobby.push({ t: 'paired', d: { gameId: 'g8' } });
    await flush();
    expect(location.pathname).toBe('/game/g8');
  });

  it('is not offered to guests, nor without sign-in on the server', async () => {
    await start('/');
    expect(byTestId('seek')).not.toBeNull();
    expect(byTestId('seek-ranked')).toBeNull();
    routes['GET /api/me'] = () => [200, { id: 7, nickname: 'Somchai', signedIn: true }];
    routes['GET /api/config'] = () => [200, { ranked: { available: false, reason: 'no_client_id', dev: false } }];
    await start('/');
    expect(byTestId('seek-ranked')).toBeNull();
    // A casual seek is sent as before.
    byTestId('seek')!.click();
    const lobby = FakeWs.all.find((w) => w.url.endsWith('/ws/lobby'))!;
    lobby.open();
    expect(lobby.sent).toEqual([{ t: 'queue', d: { variant: 'makruk' } }]);
  });
});

describe('leaderboard page', () => {
  it('lists the top players and the own rank', async () => {
    routes['GET /api/leaderboard/xiangqi'] = () => [
      200,
      {
        variant: 'xiangqi', minGames: 10, activeDays: 30,
        top: [
          { rank: 1, id: 3, name: 'Wei', rating: 1530, games: 41 },
          { rank: 2, id: 7, name: 'Somchai', rating: 1411, games: 12 },
        ],
        you: { rank: 2, rating: 1411, games: 12 },
      },
    ];
    await start('/leaderboard/xiangqi');
    const lines = all('leaderboard-line');
    expect(lines.map((l) => l.textContent)).toEqual(['1Wei153041', '2Somchai141112']);
    expect(lines[1]?.className).toContain('me');
    expect(byTestId('your-rank')?.textContent).toBe('Your rank: 2 (rating 1411)');
  });
});

describe('profile page', () => {
  beforeEach(() => {
    routes['GET /api/me'] = () => [200, { id: 7, nickname: 'Somchai', signedIn: true }];
    routes['GET /api/players/7/profile'] = () => [
      200,
      {
        id: 7, name: 'Somchai', signedIn: true, deleted: false,
        ratings: [{ variant: 'makruk', rating: 1220, games: 1, rank: null }],
        history: [{ gameId: 'g1', variant: 'makruk', before: 1200, after: 1220, at: 1_700_000_000_000 }],
      },
    ];
    routes['GET /api/players/7/games'] = () => [
      200,
      {
        games: [
          {
            id: 'g1', variant: 'makruk', mode: 'friend', result: '1-0', reason: 'resignation', createdAt: 0, finishedAt: 1,
            players: { first: { id: 7, name: 'Somchai' }, second: { id: 9, name: 'Lin' } },
          },
        ],
      },
    ];
  });

  it('shows ratings, history and recent games with links', async () => {
    await start('/player/7');
    expect(byTestId('profile-name')?.textContent).toBe('Somchai');
    expect(byTestId('rating-makruk')?.textContent).toBe('Makruk12201—');
    expect(byTestId('rating-history')?.textContent).toContain('Rating 1200 → 1220 (+20)');
    expect(document.querySelector('.recent a')?.getAttribute('href')).toBe('/game/g1');
    expect(document.querySelector('.recent a')?.textContent).toContain('against Lin');
  });

  it('deletes the account only after a confirmation', async () => {
    routes['DELETE /api/me'] = () => [204, null];
    await start('/player/7');
    byTestId('delete-account')!.click();
    await flush();
    expect(calls.some(([m]) => m === 'DELETE')).toBe(false);
    byTestId('delete-yes')!.click();
    await flush();
    expect(calls).toContainEqual(['DELETE', '/api/me', undefined]);
    expect(location.pathname).toBe('/');
    expect(byTestId('account-notice')?.textContent).toBe('Your account has been deleted.');
    expect(byTestId('nickname-input')).not.toBeNull();
  });

  it('says when the player does not exist', async () => {
    await start('/player/99');
    expect(document.body.textContent).toContain('This player does not exist.');
  });
});
