//! `/player/{id}`: name, ratings per game, rating history and recent games with links to
//! replay them. On one's own profile: sign out and delete the account (after a confirmation).

import { h, type VNode } from 'snabbdom';
import type { App, PageCtrl } from '../app';
import { t } from '../i18n';
import { ApiError, api } from '../net/api';
import type { GameSummary, Profile } from '../net/protocol';
import { link } from '../view';

export class ProfileCtrl implements PageCtrl {
  profile: Profile | null = null;
  games: GameSummary[] = [];
  missing = false;
  error = '';
  confirmDelete = false;
  busy = false;

  constructor(
    readonly app: App,
    readonly id: number,
  ) {
    void this.load();
  }

  async load(): Promise<void> {
    try {
      const [profile, games] = await Promise.all([api.profile(this.id), api.playerGames(this.id)]);
      this.profile = profile;
      this.games = games.games.slice(0, 20);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) this.missing = true;
      else this.error = e instanceof ApiError && e.status ? e.message : t('errors.network');
    }
    this.app.redraw();
  }

  get own(): boolean {
    return this.app.me?.id === this.id;
  }

  async deleteAccount(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.app.redraw();
    try {
      await api.deleteAccount();
      this.app.signedOut(t('account.deleted'));
    } catch (e) {
      this.busy = false;
      this.error = e instanceof ApiError && e.status ? e.message : t('errors.network');
      this.app.redraw();
    }
  }

  view(): VNode {
    return profileView(this);
  }
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/** The opponent's name in a game of `id`'s. */
function opponent(g: GameSummary, id: number): string {
  const other = g.players.first?.id === id ? g.players.second : g.players.first;
  return other?.name ?? '—';
}

export function profileView(c: ProfileCtrl): VNode {
  const app = c.app;
  if (c.missing) return h('section.panel', [h('h1', t('ranked.notFound')), link(app, '/', t('rules.back'))]);
  const p = c.profile;
  if (!p) return h('section.panel', [c.error ? h('p.error', { attrs: { role: 'alert' } }, c.error) : h('p', t('rules.loading'))]);
  const name = p.deleted ? t('account.anonymous') : p.name;
  return h('div.profile', { attrs: { 'data-testid': 'profile' } }, [
    h('section.panel', [
      h('h1', { attrs: { 'data-testid': 'profile-name' } }, name),
      c.error ? h('p.error', { attrs: { role: 'alert' } }, t('errors.generic', { message: c.error })) : null,
      h('h2', t('ranked.ratings')),
      p.ratings.length === 0
        ? h('p', t('ranked.noRatings'))
        : h('table.board-table', [
            h('thead', [
              h('tr', [
                h('th', { attrs: { scope: 'col' } }, t('ranked.player')),
                h('th', { attrs: { scope: 'col' } }, t('ranked.rating')),
                h('th', { attrs: { scope: 'col' } }, t('ranked.games')),
                h('th', { attrs: { scope: 'col' } }, t('ranked.rank')),
              ]),
            ]),
            h(
              'tbody',
              p.ratings.map((r) =>
                h('tr', { attrs: { 'data-testid': `rating-${r.variant}` } }, [
                  h('td', link(app, `/leaderboard/${r.variant}`, t(`variant.${r.variant}`))),
                  h('td', String(r.rating)),
                  h('td', String(r.games)),
                  h('td', r.rank === null ? '—' : String(r.rank)),
                ]),
              ),
            ),
          ]),
      p.history.length > 0 ? h('h2', t('ranked.history')) : null,
      p.history.length > 0
        ? h(
            'ol.history',
            p.history.slice(0, 50).map((ch) =>
              h('li', { attrs: { 'data-testid': 'rating-history' } }, [
                h('span', `${t(`variant.${ch.variant}`)} · ${new Date(ch.at).toLocaleDateString(app.lang)} · `),
                t('ranked.change', { before: ch.before, after: ch.after, delta: signed(ch.after - ch.before) }),
                ' · ',
                link(app, `/game/${ch.gameId}`, t('ranked.replay')),
              ]),
            ),
          )
        : null,
    ]),
    h('section.panel', [
      h('h2', t('ranked.recent')),
      c.games.length === 0
        ? h('p', t('ranked.noGames'))
        : h(
            'ul.recent',
            c.games.map((g) =>
              h('li', [
                link(app, `/game/${g.id}`, `${t(`variant.${g.variant}`)} · ${t('ranked.vs', { name: opponent(g, p.id) })} · ${g.result ?? ''}`),
              ]),
            ),
          ),
    ]),
    c.own && app.me?.signedIn ? accountPanel(c) : null,
  ]);
}

function accountPanel(c: ProfileCtrl): VNode {
  return h('section.panel.account', [
    h('button', { attrs: { type: 'button', 'data-testid': 'sign-out' }, on: { click: () => void c.app.signOut() } }, t('account.signOut')),
    c.confirmDelete
      ? h('div.confirm', { attrs: { role: 'alertdialog', 'aria-labelledby': 'delete-q' } }, [
          h('p#delete-q', t('account.deleteConfirm')),
          h(
            'button.danger',
            { attrs: { type: 'button', disabled: c.busy, 'data-testid': 'delete-yes' }, on: { click: () => void c.deleteAccount() } },
            t('account.deleteYes'),
          ),
          h(
            'button',
            {
              attrs: { type: 'button' },
              on: {
                click: () => {
                  c.confirmDelete = false;
                  c.app.redraw();
                },
              },
            },
            t('home.cancel'),
          ),
        ])
      : h(
          'button.danger',
          {
            attrs: { type: 'button', 'data-testid': 'delete-account' },
            on: {
              click: () => {
                c.confirmDelete = true;
                c.app.redraw();
              },
            },
          },
          t('account.deleteAccount'),
        ),
  ]);
}
