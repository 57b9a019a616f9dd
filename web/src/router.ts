//! Routes by URL: `/`, `/game/{id}`, `/invite/{token}`, `/rules/{variant}`.

import type { VariantKey } from './net/protocol';
import { isVariantKey } from './variants';

export type Route =
  | { page: 'home'; variant?: VariantKey }
  | { page: 'game'; id: string }
  | { page: 'invite'; token: string }
  | { page: 'rules'; variant: VariantKey }
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
    case 'notFound':
      return '/404';
  }
}
