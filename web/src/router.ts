//! Routes by URL: `/`, `/game/{id}`, `/invite/{token}`, `/rules/{variant}`,
//! `/leaderboard/{variant}`, `/player/{id}`.

import type { VariantKey } from './net/protocol';
import { isVariantKey } from './variants';

export type Route =
  | { page: 'home'; variant?: VariantKey }
  | { page: 'game'; id: string }
  | { page: 'invite'; token: string }
  | { page: 'rules'; variant: VariantKey }
  | { page: 'leaderboard'; variant: VariantKey }
  | { page: 'player'; id: number }
  | { page: 'notFound' };

export function parseRoute(pathname: string, search = ''): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) {
    const v = new URLSearchParams(search).get('variant');
    return v && isVariantKey(v) ? { page: 'home', variant: v } : { page: 'home' };
  }
  const [head, arg, ...rest] = parts;
  if (rest.length || !arg) return { page: 'notFound' };
  if (head === 'game') return { page: 'game', id: arg };
  if (head === 'invite') return { page: 'invite', token: arg };
  if (head === 'rules' && isVariantKey(arg)) return { page: 'rules', variant: arg };
  if (head === 'leaderboard' && isVariantKey(arg)) return { page: 'leaderboard', variant: arg };
  if (head === 'player' && /^[1-9]\d{0,15}$/.test(arg)) return { page: 'player', id: Number(arg) };
  return { page: 'notFound' };
}

export function routePath(r: Route): string {
  switch (r.page) {
    case 'home':
      return r.variant ? `/?variant=${r.variant}` : '/';
    case 'game':
      return `/game/${encodeURIComponent(r.id)}`;
    case 'invite':
      return `/invite/${encodeURIComponent(r.token)}`;
    case 'rules':
      return `/rules/${r.variant}`;
    case 'leaderboard':
      return `/leaderboard/${r.variant}`;
    case 'player':
      return `/player/${r.id}`;
    case 'notFound':
      return '/404';
  }
}
