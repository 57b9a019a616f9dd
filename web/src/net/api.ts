//! The HTTP API (docs/protocol.md), same origin, JSON in and out.

import type { GameState, GameSummary, Invitation, Leaderboard, Level, Me, Profile, ServerConfig, Side, VariantKey } from './protocol';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', e instanceof Error ? e.message : String(e));
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const err = (data ?? {}) as { error?: string; message?: string };
    throw new ApiError(res.status, err.error ?? `http-${res.status}`, err.message ?? res.statusText);
  }
  return data as T;
}

export const api = {
  me: () => call<Me>('GET', '/api/me'),
  createSession: (nickname: string) => call<Me>('POST', '/api/session', { nickname }),
  rename: (nickname: string) => call<Me>('PATCH', '/api/me', { nickname }),
  createAiGame: (variant: VariantKey, level: Level, side: Side | 'random') =>
    call<{ id: string }>('POST', '/api/games', { variant, mode: 'ai', level, side }),
  invite: (variant: VariantKey, rated = false) => call<Invitation>('POST', '/api/invitations', { variant, rated }),
  accept: (token: string) => call<{ gameId: string }>('POST', `/api/invitations/${encodeURIComponent(token)}/accept`),
  game: (id: string) => call<GameState>('GET', `/api/games/${encodeURIComponent(id)}`),
  config: () => call<ServerConfig>('GET', '/api/config'),
  signIn: (credential: string) => call<Me>('POST', '/api/auth/signin', { credential }),
  signOut: () => call<null>('DELETE', '/api/session'),
  deleteAccount: () => call<null>('DELETE', '/api/me'),
  devToken: (sub: string, name?: string) => call<{ credential: string }>('POST', '/api/dev-oidc/token', { sub, name }),
  leaderboard: (variant: VariantKey) => call<Leaderboard>('GET', `/api/leaderboard/${variant}`),
  profile: (id: number) => call<Profile>('GET', `/api/players/${id}/profile`),
  playerGames: (id: number) => call<{ games: GameSummary[] }>('GET', `/api/players/${id}/games`),
};

export const recordUrl = (id: string): string => `/api/games/${encodeURIComponent(id)}/record`;

/** Client-side check mirroring the server's nickname rule (the server has the last word). */
export function validNickname(raw: string): boolean {
  const s = raw.trim();
  const n = [...s].length;
  return n >= 2 && n <= 20 && /^[\p{L}\p{N}\p{M}_-]+$/u.test(s);
}
