//! Original SVG artwork for every piece, drawn in a 100×100 cell. Makruk pieces are
//! silhouettes in the shape of carved Thai pieces; Xiangqi pieces are discs with a character or
//! a picture; checkers pieces are discs, kings crowned.

import { h, type VNode } from 'snabbdom';
import type { Side } from '../net/protocol';
import type { Piece } from '../variants/types';

export type PieceStyle = 'characters' | 'pictures';

const path = (d: string, cls = 'body'): VNode => h('path', { attrs: { d, class: cls } });

// Makruk ------------------------------------------------------------------------------------

const BASE = 'M20 86 Q50 93 80 86 L76 76 Q50 82 24 76 Z';
const makrukShapes: Record<string, string[]> = {
  khun: [
    BASE,
    'M30 77 Q32 62 40 57 L60 57 Q68 62 70 77 Q50 81 30 77 Z',
    'M36 57 Q38 50 44 48 L56 48 Q62 50 64 57 Z',
    'M40 48 Q42 40 47 37 L53 37 Q58 40 60 48 Z',
    'M46 37 L50 14 L54 37 Z',
  ],
  met: [
    BASE,
    'M31 77 Q33 63 40 58 L60 58 Q67 63 69 77 Q50 81 31 77 Z',
    'M37 58 Q36 42 50 36 Q64 42 63 58 Z',
    'M47 36 Q50 28 53 36 Z',
  ],
  khon: [
    BASE,
    'M32 77 Q34 64 41 60 L59 60 Q66 64 68 77 Q50 81 32 77 Z',
    'M39 60 Q34 44 50 24 Q66 44 61 60 Z',
    'M50 30 L50 52',
  ],
  ma: [
    BASE,
    'M30 77 L34 58 Q30 48 36 38 Q40 26 54 20 L58 14 L61 22 Q74 30 76 48 L70 52 Q62 46 56 48 Q60 60 68 77 Q50 81 30 77 Z',
    'M52 30 a2.5 2.5 0 1 0 0.1 0',
  ],
  rua: [
    BASE,
    'M27 77 L29 44 Q38 50 50 50 Q62 50 71 44 L73 77 Q50 81 27 77 Z',
    'M29 44 Q26 34 32 30 Q34 38 38 42 M71 44 Q74 34 68 30 Q66 38 62 42',
    'M36 60 L64 60',
  ],
  bia: [
    'M22 70 Q22 52 50 50 Q78 52 78 70 Q78 84 50 84 Q22 84 22 70 Z',
    'M36 66 Q50 60 64 66',
  ],
  biaNgai: [
    'M22 70 Q22 52 50 50 Q78 52 78 70 Q78 84 50 84 Q22 84 22 70 Z',
    'M50 56 Q44 67 50 78 Q56 67 50 56 Z',
    'M40 44 L44 36 L50 42 L56 36 L60 44 Z',
  ],
};

function makrukPiece(role: string): VNode[] {
  const shapes = makrukShapes[role] ?? makrukShapes.bia!;
  // Closed outlines are filled; open strokes are carved detail lines; the arc is the horse's eye.
  return shapes.map((d) => path(d, d.includes('a2.5') ? 'eye' : d.trim().endsWith('Z') ? 'body' : 'line'));
}

// Xiangqi -----------------------------------------------------------------------------------

const chars: Record<Side, Record<string, string>> = {
  first: { general: '帥', advisor: '仕', elephant: '相', horse: '馬', chariot: '車', cannon: '炮', soldier: '兵' },
  second: { general: '將', advisor: '士', elephant: '象', horse: '馬', chariot: '車', cannon: '砲', soldier: '卒' },
};

const pictures: Record<string, string[]> = {
  general: ['M30 64 L30 40 L40 51 L50 32 L60 51 L70 40 L70 64 Z', 'M28 70 L72 70'],
  advisor: ['M50 70 L28 42 Q50 24 72 42 Z', 'M50 70 L40 40 M50 70 L50 34 M50 70 L60 40'],
  elephant: [
    'M36 34 Q50 24 64 34 Q68 48 58 56 L42 56 Q32 48 36 34 Z',
    'M25 34 Q17 50 31 61 Q39 52 37 37 Z',
    'M75 34 Q83 50 69 61 Q61 52 63 37 Z',
    'M50 54 Q51 70 43 73 Q38 74 37 69',
  ],
  horse: ['M34 72 L37 58 Q33 50 38 42 Q42 32 54 27 L57 22 L59 29 Q69 35 70 48 L65 51 Q59 47 55 49 Q58 60 64 72 Z'],
  chariot: ['M50 30 a20 20 0 1 0 0.1 0', 'M50 30 L50 70 M30 50 L70 50 M36 36 L64 64 M64 36 L36 64'],
  cannon: ['M28 56 L64 34 L69 42 L33 64 Z', 'M40 58 a10 10 0 1 0 0.1 0 Z', 'M30 72 L70 72'],
  soldier: ['M50 26 L56 38 L44 38 Z', 'M50 38 L50 74', 'M36 62 Q36 46 50 46 Q64 46 64 62 Z'],
};

function xiangqiPiece(p: Piece, style: PieceStyle): VNode[] {
  const disc = [
    h('circle', { attrs: { cx: 50, cy: 50, r: 44, class: 'disc' } }),
    h('circle', { attrs: { cx: 50, cy: 50, r: 37, class: 'ring' } }),
  ];
  if (style === 'pictures') {
    return [
      ...disc,
      ...(pictures[p.role] ?? []).map((d) => path(d, d.trim().endsWith('Z') ? 'mark' : 'mark-line')),
    ];
  }
  return [
    ...disc,
    h('text', { attrs: { x: 50, y: 52, class: 'glyph', 'text-anchor': 'middle', 'dominant-baseline': 'central' } }, chars[p.side][p.role] ?? '?'),
  ];
}

// Checkers ----------------------------------------------------------------------------------

function checkersPiece(p: Piece): VNode[] {
  const out = [
    h('circle', { attrs: { cx: 50, cy: 54, r: 38, class: 'edge' } }),
    h('circle', { attrs: { cx: 50, cy: 48, r: 38, class: 'disc' } }),
    h('circle', { attrs: { cx: 50, cy: 48, r: 27, class: 'ring' } }),
  ];
  if (p.role === 'king') out.push(path('M33 58 L31 38 L41 47 L50 32 L59 47 L69 38 L67 58 Z', 'crown'));
  return out;
}

// -------------------------------------------------------------------------------------------

/** The piece's drawing, as children of a `<g>` placed on its cell. */
export function pieceArt(variant: string, p: Piece, style: PieceStyle): VNode[] {
  if (variant === 'xiangqi') return xiangqiPiece(p, style);
  if (variant === 'checkers') return checkersPiece(p);
  return makrukPiece(p.role);
}
