//! Makruk (Thai chess): 8×8, all squares one colour. Moves `e3e4`, promotion `e5d6m`.

import { algebraic, fileLetter, parseFen } from './chesslike';
import type { MoveSyntax, Pieces, Variant } from './types';

const { name, coord } = algebraic(8, 8);

export const makruk: Variant = {
  key: 'makruk',
  files: 8,
  ranks: 8,
  grid: 'squares',
  colours: { first: 'colour.white', second: 'colour.black' },
  roles: {
    khun: { letter: 'k', san: 'K' },
    met: { letter: 'm', san: 'M' },
    khon: { letter: 's', san: 'S' },
    ma: { letter: 'n', san: 'N' },
    rua: { letter: 'r', san: 'R' },
    bia: { letter: 'p', san: '' },
    biaNgai: { letter: 'm', san: 'M' },
  },
  royal: 'khun',
  promotesTo: 'biaNgai',
  playable: () => true,
  name,
  coord,
  parseMove(uci: string): MoveSyntax | null {
    const m = /^([a-h][1-8])([a-h][1-8])(m?)$/.exec(uci);
    if (!m) return null;
    return { uci, path: [m[1]!, m[2]!], capture: false, promotion: m[3] === 'm' };
  },
  parseFen: (fen) => parseFen(fen, 8, 8, makruk.roles, (r) => (r === 'met' ? 'biaNgai' : r)),
  fileLabel: fileLetter,
  rankLabel: (r) => String(r + 1),
};

/**
 * A FEN cannot tell a Bia ngai from a Met unless it marks it with `~`. Replaying the move list
 * (plain from–to moves: Makruk has no castling or en passant) finds the promoted ones.
 */
export function markPromoted(pieces: Pieces, initial: Pieces, moves: readonly string[]): Pieces {
  const promoted = new Set<string>();
  const board = new Map(initial);
  for (const uci of moves) {
    const mv = makruk.parseMove(uci);
    if (!mv) return pieces;
    const [from, to] = mv.path as [string, string];
    const p = board.get(from);
    board.delete(from);
    promoted.delete(to);
    if (p) board.set(to, p);
    if (promoted.delete(from) || mv.promotion) promoted.add(to);
  }
  const out: Pieces = new Map(pieces);
  for (const sq of promoted) {
    const p = out.get(sq);
    if (p && p.role === 'met') out.set(sq, { ...p, role: 'biaNgai' });
  }
  return out;
}
