//! Sign-in for ranked play. With a Google client id the page loads Google Identity Services
//! (only then: no third-party script for players who never see the button) and hands its ID
//! token (the "credential") to the server, which checks it itself. A server started with the
//! development issuer instead mints tokens for a typed test account (browser tests).

import { api } from './api';
import type { Me, ServerConfig } from './protocol';

export const GIS_SRC = 'https://accounts.google.com/gsi/client';

/** What the header offers: a Google button, the development form, or nothing (and why). */
export type SignInMode = { kind: 'google'; clientId: string } | { kind: 'dev' } | { kind: 'unavailable'; reason: string };

export function signInMode(config: ServerConfig | null): SignInMode {
  const r = config?.ranked;
  if (!r || !r.available) return { kind: 'unavailable', reason: r?.reason ?? 'unknown' };
  if (r.dev) return { kind: 'dev' };
  if (r.clientId) return { kind: 'google', clientId: r.clientId };
  return { kind: 'unavailable', reason: 'no_client_id' };
}

interface GoogleId {
  initialize(o: { client_id: string; callback: (r: { credential: string }) => void }): void;
  renderButton(el: HTMLElement, o: Record<string, string>): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } };
  }
}

let gisLoading: Promise<void> | null = null;

/** Loads the Google Identity Services script once. */
export function loadGis(doc: Document = document): Promise<void> {
  gisLoading ??= new Promise<void>((resolve, reject) => {
    const s = doc.createElement('script');
    s.src = GIS_SRC;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => {
      gisLoading = null;
      reject(new Error('Google sign-in could not be loaded'));
    };
    doc.head.appendChild(s);
  });
  return gisLoading;
}

/** Puts Google's button in `el`; `onCredential` gets the ID token after the user signs in. */
export async function renderGoogleButton(el: HTMLElement, clientId: string, lang: string, onCredential: (credential: string) => void): Promise<void> {
  await loadGis(el.ownerDocument);
  const id = window.google?.accounts.id;
  if (!id) throw new Error('Google sign-in is unavailable');
  id.initialize({ client_id: clientId, callback: (r) => onCredential(r.credential) });
  id.renderButton(el, { type: 'standard', theme: 'outline', size: 'medium', text: 'signin_with', locale: lang });
}

/** Development issuer: a token for `sub`, then the same sign-in as Google's. */
export async function devSignIn(sub: string): Promise<Me> {
  const { credential } = await api.devToken(sub);
  return api.signIn(credential);
}
