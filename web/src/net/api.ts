//! The HTTP API (docs/protocol.md), same origin, JSON in and out.

import type { GameState, Invitation, Level, Me, Side, VariantKey } from './protocol';

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
  invite: (variant: VariantKey) => call<Invitation>('POST', '/api/invitations', { variant }),
  accept: (token: string) => call<{ gameId: string }>('POST', `/api/invitations/${encodeURIComponent(token)}/accept`),
  game: (id: string) => call<GameState>('GET', `/api/games/${encodeURIComponent(id)}`),
};

export const recordUrl = (id: string): string => `/api/games/${encodeURIComponent(id)}/record`;

/** Client-side check mirroring the server's nickname rule (the server has the last word). */
export function validNickname(raw: string): boolean {
  const s = raw.trim();
  const n = [...s].length;
  return n >= 2 && n <= 20 && /^[\p{L}\p{N}\p{M}_-]+$/u.test(s);
}
