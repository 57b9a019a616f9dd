//! Shows a move on the board before the server confirms it: the piece goes to its last
//! landing, checkers' jumped pieces disappear, a Makruk promotion or a checkers crowning shows.
//! The server's next position replaces this in any case.

import type { MoveSyntax, Pieces, Variant } from '../variants/types';

export function applyPreview(v: Variant, pieces: Pieces, mv: MoveSyntax): Pieces {
  const out: Pieces = new Map(pieces);
  const from = mv.path[0]!;
  const to = mv.path[mv.path.length - 1]!;
  const piece = out.get(from);
  if (!piece) return out;
  out.delete(from);
  if (v.key === 'checkers' && mv.capture) {
    for (let i = 1; i < mv.path.length; i++) {
      const a = v.coord(mv.path[i - 1]!);
      const b = v.coord(mv.path[i]!);
      if (!a || !b) continue;
      const mid = v.name({ file: (a.file + b.file) / 2, rank: (a.rank + b.rank) / 2 });
      if (mid) out.delete(mid);
    }
  }
  let role = piece.role;
  if (mv.promotion && v.promotesTo) role = v.promotesTo;
  if (v.key === 'checkers' && role === 'man') {
    const c = v.coord(to);
    if (c && c.rank === (piece.side === 'first' ? v.ranks - 1 : 0)) role = 'king';
  }
  out.set(to, { ...piece, role });
  return out;
}

/** Keeps each piece's key across a move (the moved piece takes its key along) so it slides. */
export function carryKeys(
  old: ReadonlyMap<string, string>,
  oldPieces: Pieces,
  pieces: Pieces,
  path: readonly string[] | null,
  fresh: () => string,
): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  const from = path?.[0];
  const to = path?.[path.length - 1];
  if (from && to && pieces.has(to) && old.has(from)) {
    out.set(to, old.get(from)!);
    used.add(old.get(from)!);
  }
  for (const [sq, p] of pieces) {
    if (out.has(sq)) continue;
    const q = oldPieces.get(sq);
    const k = old.get(sq);
    if (k && q && q.side === p.side && sq !== from && !used.has(k)) {
      out.set(sq, k);
      used.add(k);
    } else out.set(sq, fresh());
  }
  return out;
}
