//! Words for the game page, as pure functions of the game state: names, turn, result and its
//! reason, counters, move list rows.

import { t } from '../i18n';
import { type GameState, type PlayedMove, type Side, otherSide } from '../net/protocol';
import { variants } from '../variants';

export const colourName = (g: GameState, side: Side): string => t(variants[g.variant].colours[side]);

export function playerName(g: GameState, side: Side): string {
  const p = g.players[side];
  return p.ai ? t('game.ai', { level: t(`home.levels.${p.ai}`) }) : p.name;
}

export function turnText(g: GameState): string {
  if (g.you === g.turn) return t('game.yourTurn');
  if (g.you) return t('game.theirTurn', { name: playerName(g, g.turn) });
  return t('game.sideToMove', { colour: colourName(g, g.turn) });
}

export function resultText(g: GameState): { title: string; reason: string } | null {
  const r = g.result;
  if (!r) return null;
  const reason = t(`result.reason.${r.reason}`);
  if (r.reason === 'aborted') return { title: t('result.aborted'), reason: '' };
  if (!r.winner) return { title: t('result.draw'), reason };
  if (g.you) return { title: t(g.you === r.winner ? 'result.youWin' : 'result.youLose'), reason };
  return { title: t('result.wins', { colour: colourName(g, r.winner) }), reason };
}

/** The last move in words for the live region: who moved which piece from where to where. */
export function moveSaid(g: GameState): string {
  const last = g.moves[g.moves.length - 1];
  if (!last) return '';
  const v = variants[g.variant];
  const by: Side = g.moves.length % 2 === 1 ? 'first' : 'second';
  const m = v.parseMove(last.uci);
  const to = m?.path[m.path.length - 1];
  const piece = to ? v.parseFen(g.fen).pieces.get(to) : undefined;
  if (!m || !to || !piece) return `${colourName(g, by)}: ${last.san || last.uci}`;
  const capture = m.capture || last.san.includes('x');
  const said = t(capture ? 'game.saidCapture' : 'game.said', {
    colour: colourName(g, by),
    piece: t(`piece.${piece.role}`),
    from: m.path[0],
    to: m.path.slice(1).join(', '),
  });
  return g.check ? `${said}. ${t('game.check')}` : said;
}

/** Plies left before a move-limit draw is worth showing. */
export const NEAR_LIMIT_PLIES = 20;

export function counterLines(g: GameState): string[] {
  const c = g.counters;
  if (!c) return [];
  const out: string[] = [];
  const m = c.makruk;
  if (m) {
    out.push(t(m.kind === 'board' ? 'counters.board' : 'counters.piece', { count: m.count, limit: m.limit }));
    out.push(t('counters.countingSide', { colour: colourName(g, m.side) }));
    out.push(t('counters.movesLeft', { count: m.movesLeft }));
  }
  const plies = c.pliesBeforeMoveLimit;
  if (typeof plies === 'number' && plies <= NEAR_LIMIT_PLIES && !g.result) out.push(t('counters.moveLimit', { count: plies }));
  return out;
}

/** A friend game whose second seat nobody has taken yet (no id, not connected). */
export function waitingForFriend(g: GameState): boolean {
  if (g.mode !== 'friend' || g.result) return false;
  return (['first', 'second'] as const).some((s) => {
    const p = g.players[s];
    return p.id === null && !p.ai && !p.connected;
  });
}

export function opponentGone(g: GameState): string | null {
  if (!g.you || g.result) return null;
  const side = otherSide(g.you);
  const p = g.players[side];
  if (p.ai || p.id === null || p.connected) return null;
  return playerName(g, side);
}

export interface MoveRow {
  n: number;
  first?: PlayedMove & { ply: number };
  second?: PlayedMove & { ply: number };
}

/** Moves as numbered rows of the first and second player's moves. */
export function moveRows(moves: readonly PlayedMove[]): MoveRow[] {
  const rows: MoveRow[] = [];
  moves.forEach((m, i) => {
    const n = Math.floor(i / 2) + 1;
    if (i % 2 === 0) rows.push({ n, first: { ...m, ply: i + 1 } });
    else rows[rows.length - 1]!.second = { ...m, ply: i + 1 };
  });
  return rows;
}

export const typedExample: Record<string, string> = { makruk: 'e3e4, Nf3', xiangqi: 'h3e3, Che3', checkers: '11-15, 9x18' };
