//! American checkers (English draughts) on the 32 dark squares, named by PDN numbers.
//!
//! Geometry (see docs/web-client.md): files a–h and ranks 1–8 counted from Black's side, Black
//! (the first player) at the bottom. a1 is dark. Square 1 is g1, then 2 = e1, 3 = c1, 4 = a1;
//! rank 2 holds 5 = h2, 6 = f2, 7 = d2, 8 = b2; and so on up to 29 = h8 … 32 = b8. Seen from
//! White's side this is the usual diagram: 1–4 across the top from the left, 29 in White's
//! bottom-left corner.

import { fileLetter } from './chesslike';
import type { Coord, MoveSyntax, Pieces, Position, Variant } from './types';

export function pdnToCoord(n: number): Coord | null {
  if (!Number.isInteger(n) || n < 1 || n > 32) return null;
  const row = Math.floor((n - 1) / 4);
  const i = (n - 1) % 4;
  return { file: 7 - (2 * i + (row % 2 === 0 ? 1 : 0)), rank: row };
}

export function coordToPdn(c: Coord): number | null {
  if (c.file < 0 || c.file > 7 || c.rank < 0 || c.rank > 7) return null;
  if ((c.file + c.rank) % 2 !== 0) return null;
  const whiteCol = 7 - c.file;
  const i = (whiteCol - (c.rank % 2 === 0 ? 1 : 0)) / 2;
  return c.rank * 4 + i + 1;
}

/** Reads a PDN FEN such as `B:W21,22,K30:B1-12`. */
export function parseCheckersFen(fen: string): Position {
  const pieces: Pieces = new Map();
  const parts = fen.trim().replace(/\.$/, '').split(':');
  const turn = parts[0]?.trim().toUpperCase() === 'W' ? 'second' : 'first';
  for (const part of parts.slice(1)) {
    const colour = part.trim()[0]?.toUpperCase();
    const side = colour === 'B' ? 'first' : colour === 'W' ? 'second' : null;
    if (!side) continue;
    for (const raw of part.trim().slice(1).split(',')) {
      const item = raw.trim();
      if (!item) continue;
      const king = item[0]?.toUpperCase() === 'K';
      const body = king ? item.slice(1) : item;
      const range = /^(\d+)-(\d+)$/.exec(body);
      const nums = range
        ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, k) => Number(range[1]) + k)
        : [Number(body)];
      for (const n of nums) {
        if (pdnToCoord(n)) pieces.set(String(n), { role: king ? 'king' : 'man', side });
      }
    }
  }
  return { pieces, turn };
}

export const checkers: Variant = {
  key: 'checkers',
  files: 8,
  ranks: 8,
  grid: 'squares',
  colours: { first: 'colour.black', second: 'colour.white' },
  roles: {
    man: { letter: 'm', san: '' },
    king: { letter: 'k', san: 'K' },
  },
  royal: null,
  promotesTo: null,
  playable: (c) => (c.file + c.rank) % 2 === 0,
  name: (c) => {
    const n = coordToPdn(c);
    return n === null ? null : String(n);
  },
  coord: (name) => (/^\d{1,2}$/.test(name) ? pdnToCoord(Number(name)) : null),
  parseMove(uci: string): MoveSyntax | null {
    const step = /^(\d{1,2})-(\d{1,2})$/.exec(uci);
    const jumps = /^\d{1,2}(x\d{1,2})+$/.test(uci);
    if (!step && !jumps) return null;
    const path = uci.split(/[-x]/);
    if (path.some((s) => !pdnToCoord(Number(s)))) return null;
    return { uci, path, capture: jumps, promotion: false };
  },
  parseFen: parseCheckersFen,
  fileLabel: fileLetter,
  rankLabel: (r) => String(r + 1),
};
