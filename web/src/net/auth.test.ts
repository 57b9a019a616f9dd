import { afterEach, describe, expect, it, vi } from 'vitest';
import { GIS_SRC, devSignIn, loadGis, signInMode } from './auth';

describe('sign-in mode', () => {
  it('offers Google only with a client id, the dev form with the dev issuer', () => {
    expect(signInMode({ ranked: { available: true, clientId: 'abc.apps', dev: false } })).toEqual({ kind: 'google', clientId: 'abc.apps' });
    expect(signInMode({ ranked: { available: true, clientId: 'ttakji-dev', dev: true } })).toEqual({ kind: 'dev' });
    expect(signInMode({ ranked: { available: false, reason: 'no_client_id', dev: false } })).toEqual({ kind: 'unavailable', reason: 'no_client_id' });
    expect(signInMode(null).kind).toBe('unavailable');
  });
});

describe('Google Identity Services', () => {
  it('adds the script once, when asked', async () => {
    // A stand-in document: the real script is never fetched in a test.
    const added: Array<{ src: string; onload: (() => void) | null }> = [];
    const doc = {
      createElement: () => ({ src: '', async: false, onload: null, onerror: null }),
      head: { appendChild: (s: { src: string; onload: (() => void) | null }) => added.push(s) },
    } as unknown as Document;
    const a = loadGis(doc);
    const b = loadGis(doc);
    expect(added.map((s) => s.src)).toEqual([GIS_SRC]);
    added[0]?.onload?.();
    await Promise.all([a, b]);
  });
});

describe('development sign-in', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('asks the dev issuer for a token and signs in with it', async () => {
    const calls: Array<[string, string | null]> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string, init: RequestInit) => {
        calls.push([path, typeof init.body === 'string' ? init.body : null]);
        const body = path.endsWith('/token') ? { credential: 'tok' } : { id: 3, nickname: 'lin', signedIn: true };
        return new Response(JSON.stringify(body), { status: 200 });
      }),
    );
    const me = await devSignIn('sub-1');
    expect(me).toEqual({ id: 3, nickname: 'lin', signedIn: true });
    expect(calls).toEqual([
      ['/api/dev-oidc/token', JSON.stringify({ sub: 'sub-1' })],
      ['/api/auth/signin', JSON.stringify({ credential: 'tok' })],
    ]);
  });
});
