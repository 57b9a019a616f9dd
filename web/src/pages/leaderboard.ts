//! `/leaderboard/{variant}`: the best 100 of a game, and the player's own rank.

import { h, type VNode } from 'snabbdom';
import type { App, PageCtrl } from '../app';
import { t } from '../i18n';
import { ApiError, api } from '../net/api';
import type { Leaderboard, VariantKey } from '../net/protocol';
import { variantKeys } from '../variants';
import { link } from '../view';

export class LeaderboardCtrl implements PageCtrl {
  board: Leaderboard | null = null;
  error = '';

  constructor(
    readonly app: App,
    readonly variant: VariantKey,
  ) {
    void this.load();
  }

  /** The session changed (sign-in): the own rank may have too. */
  onSession(): void {
    void this.load();
  }

  async load(): Promise<void> {
    try {
      this.board = await api.leaderboard(this.variant);
      this.error = '';
    } catch (e) {
      this.error = e instanceof ApiError && e.status ? e.message : t('errors.network');
    }
    this.app.redraw();
  }

  view(): VNode {
    return leaderboardView(this);
  }
}

export function leaderboardView(c: LeaderboardCtrl): VNode {
  const app = c.app;
  const b = c.board;
  const unavailable = app.config && !app.config.ranked.available;
  return h('section.panel.leaderboard', { attrs: { 'data-testid': 'leaderboard' } }, [
    h('h1', t('ranked.title', { variant: t(`variant.${c.variant}`) })),
    h(
      'nav.tabs',
      { attrs: { 'aria-label': t('ranked.leaderboard') } },
      variantKeys.map((k) =>
        link(app, `/leaderboard/${k}`, t(`variant.${k}`), k === c.variant ? { 'aria-current': 'page', class: 'current' } : {}),
      ),
    ),
    unavailable ? h('p.hint', { attrs: { 'data-testid': 'ranked-unavailable' } }, t('ranked.unavailable')) : null,
    c.error ? h('p.error', { attrs: { role: 'alert' } }, t('errors.generic', { message: c.error })) : null,
    b ? h('p.hint', t('ranked.rule', { minGames: b.minGames, days: b.activeDays })) : h('p', t('rules.loading')),
    b && app.me
      ? h(
          'p',
          { attrs: { 'data-testid': 'your-rank' } },
          b.you ? t('ranked.yourRank', { rank: b.you.rank, rating: b.you.rating }) : t('ranked.notRanked'),
        )
      : null,
    b && b.top.length === 0 ? h('p', t('ranked.empty')) : null,
    b && b.top.length > 0
      ? h('table.board-table', [
          h('thead', [
            h('tr', [
              h('th', { attrs: { scope: 'col' } }, t('ranked.rank')),
              h('th', { attrs: { scope: 'col' } }, t('ranked.player')),
              h('th', { attrs: { scope: 'col' } }, t('ranked.rating')),
              h('th', { attrs: { scope: 'col' } }, t('ranked.games')),
            ]),
          ]),
          h(
            'tbody',
            b.top.map((l) =>
              h('tr', { class: { me: l.id === app.me?.id }, attrs: { 'data-testid': 'leaderboard-line' } }, [
                h('td', String(l.rank)),
                h('td', link(app, `/player/${l.id}`, l.name)),
                h('td', String(l.rating)),
                h('td', String(l.games)),
              ]),
            ),
          ),
        ])
      : null,
  ]);
}
