//! Shared parts of the chess-like games (Makruk, Xiangqi): algebraic squares and
//! Fairy-Stockfish FEN.

import type { Side } from '../net/protocol';
import type { Coord, Piece, Pieces, Position, RoleInfo } from './types';

const FILES = 'abcdefghijklmnop';

export function algebraic(files: number, ranks: number) {
  const name = (c: Coord): string | null =>
    c.file >= 0 && c.file < files && c.rank >= 0 && c.rank < ranks
      ? `${FILES[c.file]}${c.rank + 1}`
      : null;
  const coord = (n: string): Coord | null => {
    const m = /^([a-p])(\d{1,2})$/.exec(n);
    if (!m) return null;
    const file = FILES.indexOf(m[1]!);
    const rank = Number(m[2]) - 1;
    return file < files && rank >= 0 && rank < ranks && String(rank + 1) === m[2] ? { file, rank } : null;
  };
  return { name, coord };
}

/** Reads the board and side to move of a FEN; `~` after a letter marks a promoted piece. */
export function parseFen(
  fen: string,
  files: number,
  ranks: number,
  roles: Record<string, RoleInfo>,
  promoted: (role: string) => string,
  aliases: Record<string, string> = {},
): Position {
  const byLetter = new Map<string, string>(Object.entries(aliases));
  for (const [role, info] of Object.entries(roles)) {
    if (!byLetter.has(info.letter)) byLetter.set(info.letter, role);
  }
  const [board = '', turn = 'w'] = fen.trim().split(/\s+/);
  const pieces: Pieces = new Map();
  const rows = board.split('/');
  rows.forEach((row, i) => {
    const rank = ranks - 1 - i;
    let file = 0;
    for (let j = 0; j < row.length; j++) {
      const ch = row[j]!;
      if (/\d/.test(ch)) {
        let num = ch;
        while (j + 1 < row.length && /\d/.test(row[j + 1]!)) num += row[++j];
        file += Number(num);
        continue;
      }
      if (ch === '~' || ch === '+') continue;
      let role = byLetter.get(ch.toLowerCase());
      if (!role) {
        file++;
        continue;
      }
      if (row[j + 1] === '~') role = promoted(role);
      const side: Side = ch === ch.toUpperCase() ? 'first' : 'second';
      const c = { file, rank };
      if (file < files && rank >= 0) pieces.set(`${FILES[c.file]}${c.rank + 1}`, { role, side } satisfies Piece);
      file++;
    }
  });
  return { pieces, turn: turn === 'b' ? 'second' : 'first' };
}

export const fileLetter = (file: number): string => FILES[file] ?? '?';
