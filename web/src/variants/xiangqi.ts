//! Xiangqi (Chinese chess): 9 files × 10 ranks of intersections. Moves `h3e3`, `a10a9`.

import { algebraic, fileLetter, parseFen } from './chesslike';
import type { MoveSyntax, Variant } from './types';

const { name, coord } = algebraic(9, 10);

export const xiangqi: Variant = {
  key: 'xiangqi',
  files: 9,
  ranks: 10,
  grid: 'points',
  colours: { first: 'colour.red', second: 'colour.black' },
  roles: {
    general: { letter: 'k', san: 'K' },
    advisor: { letter: 'a', san: 'A' },
    elephant: { letter: 'b', san: 'B' },
    horse: { letter: 'n', san: 'N' },
    chariot: { letter: 'r', san: 'R' },
    cannon: { letter: 'c', san: 'C' },
    soldier: { letter: 'p', san: '' },
  },
  // Other spellings some tools write.
  aliases: { e: 'elephant', h: 'horse' },
  royal: 'general',
  promotesTo: null,
  playable: () => true,
  name,
  coord,
  parseMove(uci: string): MoveSyntax | null {
    const m = /^([a-i](?:10|[1-9]))([a-i](?:10|[1-9]))$/.exec(uci);
    if (!m) return null;
    return { uci, path: [m[1]!, m[2]!], capture: false, promotion: false };
  },
  parseFen: (fen) => parseFen(fen, 9, 10, xiangqi.roles, (r) => r, xiangqi.aliases),
  fileLabel: fileLetter,
  rankLabel: (r) => String(r + 1),
};
