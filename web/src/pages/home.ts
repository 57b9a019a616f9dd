//! Home: pick a game, then play the computer, a friend (a link) or a random opponent (queue).

import { h, type VNode } from 'snabbdom';
import type { App, PageCtrl } from '../app';
import { t } from '../i18n';
import { ApiError, api } from '../net/api';
import type { Level, Side, VariantKey } from '../net/protocol';
import { Socket, wsUrl } from '../net/socket';
import { boardArt } from '../board/view';
import { initialFens, variantKeys, variants } from '../variants';
import { link } from '../view';
import { rememberInvitation } from './invite';

export type Busy = null | 'ai' | 'friend';

export class HomeCtrl implements PageCtrl {
  variant: VariantKey;
  busy: Busy = null;
  queue: 'idle' | 'joining' | 'queued' = 'idle';
  error = '';
  /** The friend game is to be ranked (signed-in players only). */
  rated = false;
  /** The random-opponent seek is to be ranked (signed-in players only). */
  rankedSeek = false;
  /** While queued for a ranked game: the rating the server pairs by. */
  seekRating: number | null = null;
  private lobby: Socket | null = null;

  constructor(
    readonly app: App,
    variant?: VariantKey,
  ) {
    this.variant = variant ?? app.prefs.variant;
  }

  pick(v: VariantKey): void {
    this.variant = v;
    this.cancelQueue();
    this.app.setPrefs({ variant: v });
  }

  private needSession(): boolean {
    if (this.app.me) return false;
    this.app.openNick();
    return true;
  }

  private fail(e: unknown): void {
    this.busy = null;
    this.error = e instanceof ApiError && e.status ? e.message : t('errors.network');
    this.app.redraw();
  }

  async playAi(): Promise<void> {
    if (this.needSession() || this.busy) return;
    this.busy = 'ai';
    this.error = '';
    this.app.redraw();
    try {
      const { id } = await api.createAiGame(this.variant, this.app.prefs.level, this.app.prefs.side);
      this.app.navigate(`/game/${id}`);
    } catch (e) {
      this.fail(e);
    }
  }

  async playFriend(): Promise<void> {
    if (this.needSession() || this.busy) return;
    this.busy = 'friend';
    this.error = '';
    this.app.redraw();
    try {
      const inv = await api.invite(this.variant, this.rated && this.app.me?.signedIn === true);
      rememberInvitation(inv);
      this.app.navigate(`/game/${inv.gameId}`);
    } catch (e) {
      this.fail(e);
    }
  }

  seek(): void {
    if (this.needSession() || this.queue !== 'idle') return;
    this.queue = 'joining';
    this.error = '';
    const variant = this.variant;
    // Ranked only when it can be: the server refuses guests anyway.
    const ranked = this.canRank() && this.rankedSeek;
    const request = ranked ? { variant, ranked: true } : { variant };
    this.lobby = new Socket({
      url: wsUrl('/ws/lobby'),
      handlers: {
        queued: (d: { ranked?: boolean; rating?: number | null }) => {
          this.queue = 'queued';
          this.seekRating = d.ranked ? (d.rating ?? null) : null;
          this.app.redraw();
        },
        paired: (d: { gameId: string }) => {
          this.lobby?.close();
          this.lobby = null;
          this.queue = 'idle';
          this.app.navigate(`/game/${d.gameId}`);
        },
        error: (d: { message?: string }) => {
          this.error = d.message ?? '';
          this.cancelQueue();
        },
      },
      // After a reconnect the server has forgotten us: ask again.
      onState: (s) => {
        if (s === 'open' && this.queue !== 'idle') this.lobby?.send('queue', request);
        this.app.redraw();
      },
    }).connect();
  }

  cancelQueue(): void {
    if (!this.lobby) return;
    this.lobby.send('cancel');
    const l = this.lobby;
    this.lobby = null;
    // Give the cancel a moment to leave before closing.
    setTimeout(() => l.close(), 200);
    this.queue = 'idle';
    this.seekRating = null;
    this.app.redraw();
  }

  /** Whether this player may queue for a ranked game. */
  canRank(): boolean {
    return this.app.config?.ranked.available === true && this.app.me?.signedIn === true;
  }

  destroy(): void {
    this.cancelQueue();
  }

  view(): VNode {
    return homeView(this);
  }
}

function radio<T extends string>(name: string, current: T, options: Array<[T, string]>, set: (v: T) => void): VNode[] {
  return options.map(([value, label]) =>
    h('label.choice', [
      h('input', {
        attrs: { type: 'radio', name, value, 'data-testid': `${name}-${value}` },
        props: { checked: current === value },
        on: { change: () => set(value) },
      }),
      h('span', label),
    ]),
  );
}

/** The chosen game's starting position, as a picture. */
function preview(c: HomeCtrl): VNode {
  const v = variants[c.variant];
  return boardArt({
    variant: v,
    pieces: v.parseFen(initialFens[c.variant]).pieces,
    bottom: 'first',
    prefix: [],
    targets: [],
    lastMove: [],
    check: null,
    mustCapture: new Set(),
    movable: new Set(),
    style: c.app.prefs.pieceStyle,
    coords: false,
    focus: null,
    drag: null,
  });
}

/** The ranked checkbox for signed-in players, else why there is none. */
function rankedChoice(c: HomeCtrl): VNode | null {
  const app = c.app;
  if (!app.config) return null;
  if (!app.config.ranked.available) return h('p.hint', { attrs: { 'data-testid': 'ranked-unavailable' } }, t('ranked.unavailable'));
  if (!app.me?.signedIn) return h('p.hint', t('ranked.signInToPlay'));
  return h('label.choice', [
    h('input', {
      attrs: { type: 'checkbox', 'data-testid': 'rated' },
      props: { checked: c.rated },
      on: {
        change: (e: Event) => {
          c.rated = (e.target as HTMLInputElement).checked;
          app.redraw();
        },
      },
    }),
    h('span', t('ranked.ratedOption')),
  ]);
}

/** The "Ranked" choice of the random opponent, for signed-in players when the server has it. */
function rankedSeekChoice(c: HomeCtrl): VNode | null {
  if (!c.canRank()) return null;
  return h('label.choice', [
    h('input', {
      attrs: { type: 'checkbox', 'data-testid': 'seek-ranked', disabled: c.queue !== 'idle' },
      props: { checked: c.rankedSeek },
      on: {
        change: (e: Event) => {
          c.rankedSeek = (e.target as HTMLInputElement).checked;
          c.app.redraw();
        },
      },
    }),
    h('span', t('ranked.seekOption')),
  ]);
}

export function homeView(c: HomeCtrl): VNode {
  const app = c.app;
  const v = variants[c.variant];
  const p = app.prefs;
  return h('div.home', [
    h('p.tagline', t('app.tagline')),
    h('section.panel', { attrs: { 'aria-labelledby': 'pick-title' } }, [
      h('h1#pick-title', t('home.pick')),
      h(
        'div.variants',
        variantKeys.map((k) =>
          h(
            'button.variant',
            {
              attrs: { type: 'button', 'aria-pressed': k === c.variant ? 'true' : 'false', 'data-testid': `variant-${k}` },
              on: { click: () => c.pick(k) },
            },
            [h('strong', t(`variant.${k}`)), h('span', t(`variant.${k}Desc`))],
          ),
        ),
      ),
      h('div.pick-row', [
        preview(c),
        h('p', link(app, `/rules/${c.variant}`, t('home.howTo', { variant: t(`variant.${c.variant}`) }))),
      ]),
    ]),
    c.error ? h('p.error', { attrs: { role: 'alert' } }, t('errors.generic', { message: c.error })) : null,
    h('div.modes', [
      h('section.panel.mode', { attrs: { 'aria-labelledby': 'ai-title' } }, [
        h('h2#ai-title', t('home.playAi')),
        h('p.hint', t('home.playAiDesc')),
        h('fieldset', [
          h('legend', t('home.level')),
          ...radio<Level>('level', p.level, (['easy', 'normal', 'hard'] as const).map((l) => [l, t(`home.levels.${l}`)]), (l) =>
            app.setPrefs({ level: l }),
          ),
        ]),
        h('fieldset', [
          h('legend', t('home.side')),
          ...radio<Side | 'random'>(
            'side',
            p.side,
            [
              ['first', t(v.colours.first)],
              ['random', t('home.random')],
              ['second', t(v.colours.second)],
            ],
            (s) => app.setPrefs({ side: s }),
          ),
        ]),
        h(
          'button.primary',
          { attrs: { type: 'button', disabled: c.busy !== null, 'data-testid': 'play-ai' }, on: { click: () => void c.playAi() } },
          t('home.start'),
        ),
      ]),
      h('section.panel.mode', { attrs: { 'aria-labelledby': 'friend-title' } }, [
        h('h2#friend-title', t('home.playFriend')),
        h('p.hint', t('home.playFriendDesc')),
        rankedChoice(c),
        h(
          'button.primary',
          { attrs: { type: 'button', disabled: c.busy !== null, 'data-testid': 'play-friend' }, on: { click: () => void c.playFriend() } },
          t('home.createLink'),
        ),
      ]),
      h('section.panel.mode', { attrs: { 'aria-labelledby': 'online-title' } }, [
        h('h2#online-title', t('home.playOnline')),
        h('p.hint', t('home.playOnlineDesc')),
        rankedSeekChoice(c),
        c.queue === 'idle'
          ? h('button.primary', { attrs: { type: 'button', 'data-testid': 'seek' }, on: { click: () => c.seek() } }, t('home.seek'))
          : h('div.queue', [
              h('p', { attrs: { role: 'status', 'data-testid': 'seek-status' } }, [
                h('span.spinner', { attrs: { 'aria-hidden': 'true' } }),
                c.seekRating === null ? t('home.searching') : t('ranked.searching', { rating: c.seekRating }),
              ]),
              h('button', { attrs: { type: 'button', 'data-testid': 'seek-cancel' }, on: { click: () => c.cancelQueue() } }, t('home.cancel')),
            ]),
      ]),
    ]),
  ]);
}
