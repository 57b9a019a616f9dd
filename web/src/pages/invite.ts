//! `/invite/{token}`: the friend's side of "play a friend". Accepts the invitation (after
//! the nickname prompt if needed) and opens the game. Also keeps the creator's link at hand.

import { h, type VNode } from 'snabbdom';
import type { App, PageCtrl } from '../app';
import { t } from '../i18n';
import { ApiError, api } from '../net/api';
import type { Invitation } from '../net/protocol';
import { link } from '../view';

const key = (gameId: string) => `ttakji.invite.${gameId}`;

export function rememberInvitation(inv: Invitation): void {
  try {
    sessionStorage.setItem(key(inv.gameId), JSON.stringify(inv));
  } catch {
    /* the game page then shows no link */
  }
}

export function invitationFor(gameId: string): Invitation | null {
  try {
    const raw = sessionStorage.getItem(key(gameId));
    return raw ? (JSON.parse(raw) as Invitation) : null;
  } catch {
    return null;
  }
}

/** The full address to send: the server's `url` if absolute, else this origin + it. */
export function inviteLink(inv: Invitation, origin = location.origin): string {
  if (/^https?:\/\//.test(inv.url)) return inv.url;
  return `${origin}${inv.url || `/invite/${inv.token}`}`;
}

export class InviteCtrl implements PageCtrl {
  error = '';
  private started = false;

  constructor(
    readonly app: App,
    readonly token: string,
  ) {
    if (app.me) void this.accept();
  }

  onSession(_fresh: boolean): void {
    void this.accept();
  }

  async accept(): Promise<void> {
    if (this.started) return;
    this.started = true;
    try {
      const { gameId } = await api.accept(this.token);
      this.app.navigate(`/game/${gameId}`, true);
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      this.error =
        status === 404
          ? 'invite.unknown'
          : status === 410
            ? 'invite.expired'
            : status === 409
              ? 'invite.taken'
              : status === 403
                ? 'ranked.needSignIn'
                : 'errors.network';
      this.app.redraw();
    }
  }

  view(): VNode {
    return h('section.panel', { attrs: { 'data-testid': 'invite' } }, [
      h('h1', t('invite.title')),
      this.error
        ? h('p.error', { attrs: { role: 'alert' } }, t(this.error))
        : h('p', { attrs: { role: 'status' } }, t('invite.joining')),
      this.error ? link(this.app, '/', t('game.newGame')) : null,
    ]);
  }
}
