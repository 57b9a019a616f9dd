//! The game page as pure functions of the controller's state.

import { h, type VNode } from 'snabbdom';
import { boardView } from '../board/view';
import { clockShow } from '../clock';
import { t } from '../i18n';
import { recordUrl } from '../net/api';
import { type GameState, type Side, otherSide } from '../net/protocol';
import { link } from '../view';
import type { GameCtrl } from './game';
import {
  colourName,
  counterLines,
  moveRows,
  moveSaid,
  opponentGone,
  playerName,
  resultText,
  turnText,
  typedExample,
  waitingForFriend,
} from './gameInfo';
import { invitationFor, inviteLink } from './invite';

const button = (
  label: string,
  onClick: () => void,
  attrs: Record<string, string | boolean> = {},
  cls = '',
): VNode => h(`button${cls}`, { attrs: { type: 'button', ...attrs }, on: { click: onClick } }, label);

function clockView(c: GameCtrl, g: GameState, side: Side): VNode | null {
  if (!g.clock) return null;
  const running = g.clock.running === side && !g.result;
  const s = clockShow(g.clock[side], running ? c.elapsed() : 0);
  return h(
    'div.clock',
    {
      attrs: { role: 'timer', 'data-testid': `clock-${side}`, 'aria-label': t('clock.label', { name: playerName(g, side) }) },
      class: { running, low: s.low, byoyomi: s.phase !== 'main' },
    },
    [
      h('span.time', s.text),
      h('span.periods', [
        s.phase === 'byoyomi' ? h('span.by', `${t('clock.byoyomi')} · `) : null,
        t('clock.periods', { count: s.periods }),
      ]),
      s.low ? h('span.sr-only', t('clock.low')) : null,
    ],
  );
}

function playerStrip(c: GameCtrl, g: GameState, side: Side, pos: 'top' | 'bottom'): VNode {
  const p = g.players[side];
  const active = g.turn === side && !g.result;
  return h(`div.player.${pos}`, { attrs: { 'data-testid': `player-${pos}` }, class: { active } }, [
    h(`span.swatch.${g.variant}-${side}`, { attrs: { 'aria-hidden': 'true' } }),
    h('span.name', [
      h('span.sr-only', `${colourName(g, side)}: `),
      playerName(g, side),
      g.you === side ? h('span.you', ` (${t('game.you')})`) : null,
      ratingBadge(c, g, side),
    ]),
    !p.ai && p.id !== null ? h('span.presence', { class: { on: p.connected }, attrs: { 'aria-hidden': 'true' } }) : null,
    clockView(c, g, side),
  ]);
}

/** A ranked game's rating next to the name (after the game: the new one). */
function ratingBadge(c: GameCtrl, g: GameState, side: Side): VNode | null {
  if (!g.rated) return null;
  const id = g.players[side].id;
  const rating = g.ratingChanges?.[side]?.after ?? (id === null ? undefined : c.ratings[id]);
  return rating === undefined ? null : h('span.rating', { attrs: { 'data-testid': `rating-${side}`, title: t('ranked.rating') } }, ` ${rating}`);
}

/** After a ranked game: how the ratings moved (the player's own first). */
function ratingChangeView(g: GameState): VNode | null {
  if (!g.rated) return null;
  const changes = g.ratingChanges;
  if (!changes) return h('p.rated', { attrs: { 'data-testid': 'rated' } }, t('ranked.rated'));
  const sides: Side[] = g.you === 'second' ? ['second', 'first'] : ['first', 'second'];
  return h(
    'ul.rating-changes',
    { attrs: { 'data-testid': 'rating-changes' } },
    sides.map((side) => {
      const ch = changes[side];
      if (!ch) return null;
      const delta = ch.after - ch.before;
      return h('li', { attrs: { 'data-testid': `rating-change-${side}` } }, [
        `${playerName(g, side)}: `,
        t('ranked.change', { before: ch.before, after: ch.after, delta: delta > 0 ? `+${delta}` : String(delta) }),
      ]);
    }),
  );
}

function connView(c: GameCtrl): VNode {
  return h(`p.conn.${c.conn}`, { attrs: { role: 'status', 'data-testid': 'conn' } }, t(`conn.${c.conn}`));
}

/** Says the last move for screen readers, as it happens. */
function lastMoveAnnouncement(g: GameState): VNode {
  return h('p.sr-only', { attrs: { 'aria-live': 'polite', 'data-testid': 'last-move' } }, moveSaid(g));
}

function statusView(g: GameState): VNode {
  const r = resultText(g);
  if (r)
    return h('div.result', { attrs: { role: 'status', 'data-testid': 'result' } }, [
      h('strong', r.title),
      r.reason ? h('span', ` — ${r.reason}`) : null,
    ]);
  return h('p.turn', { attrs: { role: 'status', 'data-testid': 'turn' } }, [
    turnText(g),
    g.check ? h('strong.check', ` ${t('game.check')}`) : null,
  ]);
}

function invitePanel(c: GameCtrl, g: GameState): VNode | null {
  if (!waitingForFriend(g)) return null;
  const inv = invitationFor(g.id);
  const url = inv ? inviteLink(inv) : null;
  return h('section.invite', { attrs: { 'aria-labelledby': 'invite-title', 'data-testid': 'invite-panel' } }, [
    h('h2#invite-title', t('invite.title')),
    url
      ? h('div', [
          h('p', t('invite.send')),
          h('input.link', { attrs: { readonly: true, value: url, 'aria-label': t('invite.title'), 'data-testid': 'invite-url' }, props: { value: url } }),
          h('div.row', [
            button(c.copied ? t('invite.copied') : t('invite.copy'), () => void c.copyLink(url), { 'data-testid': 'invite-copy' }),
            typeof navigator !== 'undefined' && 'share' in navigator
              ? button(t('invite.share'), () =>
                  void navigator.share({ url, text: t('invite.shareText', { variant: t(`variant.${g.variant}`) }) }).catch(() => {}),
                )
              : null,
          ]),
        ])
      : null,
    h('p.waiting', { attrs: { role: 'status' } }, [h('span.spinner', { attrs: { 'aria-hidden': 'true' } }), t('invite.waiting')]),
  ]);
}

function offersView(c: GameCtrl, g: GameState): VNode[] {
  const out: VNode[] = [];
  const you = g.you;
  if (!you) return out;
  const opp = playerName(g, otherSide(you));
  if (!g.result && g.offers.draw) {
    out.push(
      g.offers.draw === you
        ? h('p.offer', t('game.drawOffered'))
        : h('div.offer', { attrs: { role: 'alert', 'data-testid': 'draw-offer' } }, [
            h('p', t('game.drawOfferedBy', { name: opp })),
            button(t('game.accept'), () => c.respond('draw', 'accept'), { 'data-testid': 'draw-accept' }, '.primary'),
            button(t('game.decline'), () => c.respond('draw', 'decline'), { 'data-testid': 'draw-decline' }),
          ]),
    );
  }
  if (g.result && g.offers.rematch && g.offers.rematch !== you) {
    out.push(
      h('div.offer', { attrs: { role: 'alert' } }, [
        h('p', t('game.rematchOfferedBy', { name: opp })),
        button(t('game.accept'), () => c.respond('rematch', 'accept'), { 'data-testid': 'rematch-accept' }, '.primary'),
        button(t('game.decline'), () => c.respond('rematch', 'decline')),
      ]),
    );
  }
  return out;
}

function controls(c: GameCtrl, g: GameState): VNode {
  const you = g.you;
  const out: (VNode | null)[] = [button(t('game.flip'), () => c.flip(), { 'data-testid': 'flip' })];
  if (you && !g.result) {
    const counters = g.counters;
    if (g.turn === you && counters?.canStartCount)
      out.push(button(t('game.startCount'), () => c.toggleCount('start'), { 'aria-pressed': c.countIntent === 'start' ? 'true' : 'false', 'data-testid': 'start-count' }));
    if (g.turn === you && counters?.canStopCount)
      out.push(button(t('game.stopCount'), () => c.toggleCount('stop'), { 'aria-pressed': c.countIntent === 'stop' ? 'true' : 'false', 'data-testid': 'stop-count' }));
    if (g.ply < 2) out.push(button(t('game.abort'), () => c.abort(), { 'data-testid': 'abort' }));
    if (g.mode === 'ai') out.push(button(t('game.takeback'), () => c.takeback(), { 'data-testid': 'takeback', disabled: g.moves.length === 0 }));
    if (!g.offers.draw) out.push(button(t('game.offerDraw'), () => c.respond('draw', 'offer'), { 'data-testid': 'draw-offer-btn' }));
    out.push(
      c.confirmResign
        ? h('span.confirm', { attrs: { role: 'group', 'aria-label': t('game.resignConfirm') } }, [
            h('span', t('game.resignConfirm')),
            button(t('game.yes'), () => c.resign(true), { 'data-testid': 'resign-yes' }, '.danger'),
            button(t('game.no'), () => c.cancelResign(), { 'data-testid': 'resign-no' }),
          ])
        : button(t('game.resign'), () => c.resign(false), { 'data-testid': 'resign' }),
    );
  }
  if (you && g.result && g.result.reason !== 'aborted') {
    out.push(
      g.offers.rematch === you
        ? h('span.offer', t('game.rematchOffered'))
        : g.offers.rematch
          ? null
          : button(t('game.rematch'), () => c.respond('rematch', 'offer'), { 'data-testid': 'rematch' }, '.primary'),
    );
  }
  if (g.result) out.push(link(c.app, '/', t('game.newGame'), { class: 'button' }));
  return h('div.controls', out);
}

function countHint(c: GameCtrl): VNode | null {
  if (!c.countIntent) return null;
  return h('p.hint', { attrs: { role: 'status' } }, t(c.countIntent === 'start' ? 'game.countArmed' : 'game.stopArmed'));
}

function typedForm(c: GameCtrl, g: GameState): VNode | null {
  if (!g.you || g.result) return null;
  return h(
    'form.typed',
    {
      on: {
        submit: (e: Event) => {
          e.preventDefault();
          c.submitTyped();
        },
      },
    },
    [
      h('label', { attrs: { for: 'typed-move' } }, t('game.typeMove')),
      h('div.row', [
        h('input#typed-move', {
          attrs: {
            type: 'text',
            autocomplete: 'off',
            autocapitalize: 'off',
            spellcheck: 'false',
            placeholder: t('game.typeMoveHint', { example: typedExample[g.variant] }),
            'aria-describedby': 'typed-error',
            'data-testid': 'typed-move',
          },
          props: { value: c.typed },
          on: {
            input: (e: Event) => {
              c.typed = (e.target as HTMLInputElement).value;
              c.typedError = '';
              c.app.redraw();
            },
          },
        }),
        h('button', { attrs: { type: 'submit' } }, t('game.play')),
      ]),
      h('p#typed-error.error', { attrs: { role: 'alert' } }, c.typedError ? t(c.typedError) : ''),
    ],
  );
}

function scrollToEnd(el: Node | undefined): void {
  if (el instanceof HTMLElement) el.scrollTop = el.scrollHeight;
}

function moveList(g: GameState): VNode {
  const rows = moveRows(g.moves);
  return h('section.moves', { attrs: { 'aria-labelledby': 'moves-title' } }, [
    h('h2#moves-title', t('game.moves')),
    rows.length
      ? h(
          'ol.movelist',
          {
            attrs: { 'data-testid': 'moves' },
            // Keep the newest move in view.
            hook: {
              insert: (v) => scrollToEnd(v.elm),
              postpatch: (_, v) => scrollToEnd(v.elm),
            },
          },
          rows.map((r) =>
            h('li', { key: r.n }, [
              h('span.n', `${r.n}.`),
              r.first ? h('span.mv', { class: { last: r.first.ply === g.moves.length } }, r.first.san || r.first.uci) : null,
              r.second ? h('span.mv', { class: { last: r.second.ply === g.moves.length } }, r.second.san || r.second.uci) : null,
            ]),
          ),
        )
      : h('p.hint', t('game.noMoves')),
    g.moves.length
      ? h('a.download', { attrs: { href: recordUrl(g.id), download: `${g.id}.${g.variant === 'checkers' ? 'pdn' : 'pgn'}`, 'data-testid': 'download' } }, t('game.download'))
      : null,
  ]);
}

export function gameView(c: GameCtrl): VNode {
  const g = c.game;
  const board = c.board;
  if (c.missing)
    return h('section.panel', { attrs: { 'data-testid': 'game-missing' } }, [h('h1', t('errors.gameNotFound')), link(c.app, '/', t('game.newGame'))]);
  if (!g || !board)
    return h('section.panel', [connView(c), h('p', { attrs: { role: 'status' } }, t('game.loading'))]);
  const bottom = board.bottom;
  const gone = opponentGone(g);
  const counters = counterLines(g);
  return h(`div.game.${g.variant}`, { attrs: { 'data-testid': 'game', 'data-variant': g.variant } }, [
    h('div.board-col', [
      playerStrip(c, g, otherSide(bottom), 'top'),
      boardView(board.props(c.app.prefs.pieceStyle, c.app.prefs.coords)),
      playerStrip(c, g, bottom, 'bottom'),
      h(
        'div.counters',
        { attrs: { 'aria-live': 'polite', 'data-testid': 'counters' } },
        counters.map((line) => h('span', line)),
      ),
    ]),
    h('aside.side', [
      connView(c),
      statusView(g),
      ratingChangeView(g),
      lastMoveAnnouncement(g),
      g.you ? null : h('p.hint', t('game.spectating')),
      gone ? h('p.warn', { attrs: { role: 'alert', 'data-testid': 'opponent-gone' } }, t('game.opponentGone', { name: gone })) : null,
      invitePanel(c, g),
      ...offersView(c, g),
      controls(c, g),
      countHint(c),
      c.notice ? h('p.error', { attrs: { role: 'alert' } }, t('game.refused', { message: c.notice })) : null,
      typedForm(c, g),
      moveList(g),
    ]),
  ]);
}
