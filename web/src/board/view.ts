//! The board as a pure function of its props: an SVG drawing (aria-hidden) under a grid of
//! buttons, one per square, which carry the screen-reader labels, the keyboard focus and the
//! test ids (`sq-e3`, `sq-11`).

import { h, type VNode } from 'snabbdom';
import { t } from '../i18n';
import type { Side } from '../net/protocol';
import type { Pieces, Variant } from '../variants/types';
import { CELL, cells, centre, toCell } from './geometry';
import { type PieceStyle, pieceArt } from './pieces';

export interface BoardProps {
  variant: Variant;
  pieces: Pieces;
  /** Stable keys by square so that moved pieces keep their element and slide. */
  keys?: ReadonlyMap<string, string>;
  bottom: Side;
  /** The path being built: the selected piece and any landings after it. */
  prefix: readonly string[];
  targets: readonly string[];
  lastMove: readonly string[];
  check: string | null;
  mustCapture: ReadonlySet<string>;
  movable: ReadonlySet<string>;
  style: PieceStyle;
  coords: boolean;
  focus: string | null;
  drag: { from: string; x: number; y: number } | null;
  on?: {
    down?: (sq: string, ev: PointerEvent) => void;
    click?: (sq: string, ev: MouseEvent) => void;
    key?: (sq: string, ev: KeyboardEvent) => void;
  };
}

const svgAttrs = (a: Record<string, string | number>) => ({ attrs: a });

function background(v: Variant, bottom: Side): VNode[] {
  const W = v.files * CELL;
  const H = v.ranks * CELL;
  const out: VNode[] = [h('rect', svgAttrs({ x: 0, y: 0, width: W, height: H, class: 'bg' }))];
  if (v.key === 'checkers') {
    for (const c of cells(v, bottom))
      if (c.name) out.push(h('rect', svgAttrs({ x: c.col * CELL, y: c.row * CELL, width: CELL, height: CELL, class: 'dark' })));
    return out;
  }
  if (v.grid === 'squares') {
    const lines: string[] = [];
    for (let i = 0; i <= v.files; i++) lines.push(`M${i * CELL} 0 V${H}`);
    for (let j = 0; j <= v.ranks; j++) lines.push(`M0 ${j * CELL} H${W}`);
    out.push(h('path', svgAttrs({ d: lines.join(' '), class: 'grid' })));
    return out;
  }
  // Xiangqi: lines through the cell centres, a river between ranks 5 and 6, two palaces.
  const c = CELL / 2;
  const lines: string[] = [];
  for (let j = 0; j < v.ranks; j++) lines.push(`M${c} ${c + j * CELL} H${W - c}`);
  for (let i = 0; i < v.files; i++) {
    const x = c + i * CELL;
    if (i === 0 || i === v.files - 1) lines.push(`M${x} ${c} V${H - c}`);
    else lines.push(`M${x} ${c} V${c + 4 * CELL} M${x} ${c + 5 * CELL} V${H - c}`);
  }
  const px = (f: number) => c + f * CELL;
  for (const top of [0, 7]) {
    lines.push(`M${px(3)} ${px(top)} L${px(5)} ${px(top + 2)} M${px(5)} ${px(top)} L${px(3)} ${px(top + 2)}`);
  }
  out.push(h('path', svgAttrs({ d: lines.join(' '), class: 'grid' })));
  out.push(h('rect', svgAttrs({ x: c - 8, y: c - 8, width: W - CELL + 16, height: H - CELL + 16, class: 'frame' })));
  const riverY = c + 4.5 * CELL;
  out.push(h('text', svgAttrs({ x: px(2), y: riverY, class: 'river', 'text-anchor': 'middle', 'dominant-baseline': 'central' }), '楚 河'));
  out.push(h('text', svgAttrs({ x: px(6), y: riverY, class: 'river', 'text-anchor': 'middle', 'dominant-baseline': 'central' }), '漢 界'));
  return out;
}

function coordinates(v: Variant, bottom: Side): VNode[] {
  const out: VNode[] = [];
  for (const c of cells(v, bottom)) {
    const x = c.col * CELL;
    const y = c.row * CELL;
    if (v.key === 'xiangqi') {
      // Pieces stand on intersections (cell centres): label each line, not each cell.
      if (c.row === v.ranks - 1)
        out.push(h('text', svgAttrs({ x: x + CELL / 2, y: y + CELL - 2, class: 'coord', 'text-anchor': 'middle' }), v.fileLabel(c.coord.file)));
      if (c.col === 0)
        out.push(h('text', svgAttrs({ x: x + 2, y: y + CELL / 2, class: 'coord', 'dominant-baseline': 'central' }), v.rankLabel(c.coord.rank)));
    } else {
      // Checkers' dark squares need light labels to stay readable.
      const cls = v.key === 'checkers' && c.name ? 'coord on-dark' : 'coord';
      if (c.row === v.ranks - 1)
        out.push(h('text', svgAttrs({ x: x + CELL - 6, y: y + CELL - 6, class: cls, 'text-anchor': 'end' }), v.fileLabel(c.coord.file)));
      if (c.col === 0) out.push(h('text', svgAttrs({ x: x + 5, y: y + 5, class: cls, 'dominant-baseline': 'hanging' }), v.rankLabel(c.coord.rank)));
    }
    if (v.key === 'checkers' && c.name)
      out.push(h('text', svgAttrs({ x: x + CELL - 6, y: y + 5, class: 'coord num', 'text-anchor': 'end', 'dominant-baseline': 'hanging' }), c.name));
  }
  return out;
}

function squareMark(p: BoardProps, name: string, cls: string): VNode | null {
  const at = centre(p.variant, p.bottom, name);
  if (!at) return null;
  return h('rect', svgAttrs({ x: at.x - CELL / 2, y: at.y - CELL / 2, width: CELL, height: CELL, class: cls }));
}

function highlights(p: BoardProps): VNode[] {
  const out: (VNode | null)[] = [];
  for (const sq of p.lastMove) out.push(squareMark(p, sq, 'last'));
  if (p.prefix[0]) out.push(squareMark(p, p.prefix[0], 'selected'));
  if (p.check) {
    const at = centre(p.variant, p.bottom, p.check);
    if (at) out.push(h('circle', svgAttrs({ cx: at.x, cy: at.y, r: CELL * 0.5, class: 'check' })));
  }
  for (const sq of p.mustCapture) {
    const at = centre(p.variant, p.bottom, sq);
    if (at) out.push(h('circle', svgAttrs({ cx: at.x, cy: at.y, r: CELL * 0.46, class: 'must' })));
  }
  return out.filter((x): x is VNode => x !== null);
}

function pathLine(p: BoardProps): VNode[] {
  if (p.prefix.length < 2) return [];
  const pts = p.prefix.map((sq) => centre(p.variant, p.bottom, sq)).filter((x) => x !== null);
  return [
    h('polyline', svgAttrs({ points: pts.map((q) => `${q.x},${q.y}`).join(' '), class: 'path' })),
    ...pts.slice(1).map((q) => h('circle', svgAttrs({ cx: q.x, cy: q.y, r: 12, class: 'landing' }))),
  ];
}

function targetMarks(p: BoardProps): VNode[] {
  return p.targets.flatMap((sq) => {
    const at = centre(p.variant, p.bottom, sq);
    if (!at) return [];
    const taken = p.pieces.has(sq);
    return [h('circle', svgAttrs({ cx: at.x, cy: at.y, r: taken ? CELL * 0.44 : CELL * 0.14, class: taken ? 'target taken' : 'target' }))];
  });
}

function pieces(p: BoardProps): VNode[] {
  const out: VNode[] = [];
  let dragged: VNode | null = null;
  const sorted = [...p.pieces].sort(([a], [b]) => (p.keys?.get(a) ?? a).localeCompare(p.keys?.get(b) ?? b));
  for (const [sq, piece] of sorted) {
    const at = centre(p.variant, p.bottom, sq);
    if (!at) continue;
    const isDragged = p.drag?.from === sq;
    const x = isDragged ? p.drag!.x * CELL - CELL / 2 : at.x - CELL / 2;
    const y = isDragged ? p.drag!.y * CELL - CELL / 2 : at.y - CELL / 2;
    const node = h(
      'g',
      {
        key: p.keys?.get(sq) ?? `${sq}:${piece.side}:${piece.role}`,
        attrs: { class: `piece ${piece.side} ${piece.role}${isDragged ? ' dragging' : ''}` },
        style: { transform: `translate(${x}px, ${y}px)` },
      },
      pieceArt(p.variant.key, piece, p.style),
    );
    if (isDragged) dragged = node;
    else out.push(node);
  }
  if (dragged) out.push(dragged); // drawn last, above the others
  return out;
}

function squareLabel(p: BoardProps, name: string, colLabel: string): string {
  const piece = p.pieces.get(name);
  const square = p.variant.key === 'checkers' ? `${name} (${colLabel})` : name;
  const parts = [
    piece
      ? t('board.occupied', { square, colour: t(p.variant.colours[piece.side]), piece: t(`piece.${piece.role}`) })
      : t('board.empty', { square }),
  ];
  if (p.prefix.includes(name)) parts.push(t('board.selected'));
  if (p.targets.includes(name)) parts.push(t('board.target'));
  if (p.mustCapture.has(name)) parts.push(t('board.mustCapture'));
  if (p.check === name) parts.push(t('board.check'));
  if (p.lastMove.includes(name)) parts.push(t('board.lastMove'));
  return parts.join(', ');
}

function buttons(p: BoardProps): VNode {
  const v = p.variant;
  const focus = p.focus ?? p.prefix[0] ?? [...p.movable][0] ?? v.name({ file: 0, rank: 0 });
  return h(
    'div.squares',
    {
      attrs: { role: 'group', 'aria-label': t('board.label', { variant: t(`variant.${v.key}`) }), 'aria-describedby': 'board-keys' },
      style: { gridTemplateColumns: `repeat(${v.files}, 1fr)`, gridTemplateRows: `repeat(${v.ranks}, 1fr)` },
    },
    cells(v, p.bottom).map((c) => {
      if (!c.name) return h('span.off', { key: `off${c.col}.${c.row}`, attrs: { 'aria-hidden': 'true' } });
      const name = c.name;
      const label = squareLabel(p, name, `${v.fileLabel(c.coord.file)}${v.rankLabel(c.coord.rank)}`);
      return h('button.sq', {
        key: name,
        attrs: {
          type: 'button',
          'data-square': name,
          'data-testid': `sq-${name}`,
          'aria-label': label,
          'aria-pressed': p.prefix[0] === name ? 'true' : 'false',
          tabindex: name === focus ? 0 : -1,
        },
        class: { target: p.targets.includes(name), movable: p.movable.has(name) },
        on: {
          pointerdown: (ev: PointerEvent) => p.on?.down?.(name, ev),
          click: (ev: MouseEvent) => p.on?.click?.(name, ev),
          keydown: (ev: KeyboardEvent) => p.on?.key?.(name, ev),
        },
      });
    }),
  );
}

/** The drawing alone, for pictures (the home page's preview): no buttons, no input. */
export function boardArt(p: BoardProps): VNode {
  const v = p.variant;
  // Pictures are small: their coordinates go in a margin outside the board, where they can be
  // large enough to read (inside a 35 px square they would be 7 px high).
  const m = p.coords ? EDGE : 0;
  return h(
    'div.board.preview.' + v.key,
    { class: { edged: p.coords }, style: { aspectRatio: `${v.files * CELL + m} / ${v.ranks * CELL + m}` }, attrs: { 'aria-hidden': 'true' } },
    [svgOf(p, p.coords)],
  );
}

/** Width of the coordinate margin of a picture, in drawing units. */
const EDGE = 56;

function edgeCoordinates(v: Variant, bottom: Side): VNode[] {
  const W = v.files * CELL;
  const H = v.ranks * CELL;
  const out: VNode[] = [h('rect', svgAttrs({ x: -EDGE, y: 0, width: W + EDGE, height: H + EDGE, class: 'edge' }))];
  for (const c of cells(v, bottom)) {
    if (c.row === v.ranks - 1)
      out.push(
        h(
          'text',
          svgAttrs({ x: c.col * CELL + CELL / 2, y: H + EDGE / 2, class: 'coord out', 'text-anchor': 'middle', 'dominant-baseline': 'central' }),
          v.fileLabel(c.coord.file),
        ),
      );
    if (c.col === 0)
      out.push(
        h(
          'text',
          svgAttrs({ x: -EDGE / 2, y: c.row * CELL + CELL / 2, class: 'coord out', 'text-anchor': 'middle', 'dominant-baseline': 'central' }),
          v.rankLabel(c.coord.rank),
        ),
      );
  }
  return out;
}

/** Checkers square numbers, large, in the top-left corner of each dark square of a picture. */
function squareNumbers(v: Variant, bottom: Side): VNode[] {
  if (v.key !== 'checkers') return [];
  return cells(v, bottom).flatMap((c) =>
    c.name ? [h('text', svgAttrs({ x: c.col * CELL + 6, y: c.row * CELL + 8, class: 'coord num', 'dominant-baseline': 'hanging' }), c.name)] : [],
  );
}

function svgOf(p: BoardProps, edge = false): VNode {
  const v = p.variant;
  const m = edge ? EDGE : 0;
  return h(
    'svg',
    {
      attrs: {
        viewBox: `${-m} 0 ${v.files * CELL + m} ${v.ranks * CELL + m}`,
        'aria-hidden': 'true',
        focusable: 'false',
        class: `art ${p.style}`,
      },
    },
    [
      edge ? h('g', { attrs: { class: 'layer-edge' } }, edgeCoordinates(v, p.bottom)) : h('g'),
      h('g', { attrs: { class: 'layer-bg' } }, background(v, p.bottom)),
      h('g', { attrs: { class: 'layer-hl' } }, highlights(p)),
      p.coords ? h('g', { attrs: { class: 'layer-coords' } }, edge ? squareNumbers(v, p.bottom) : coordinates(v, p.bottom)) : h('g'),
      h('g', { attrs: { class: 'layer-pieces' } }, pieces(p)),
      h('g', { attrs: { class: 'layer-moves' } }, [...pathLine(p), ...targetMarks(p)]),
    ],
  );
}

export function boardView(p: BoardProps): VNode {
  const v = p.variant;
  return h(
    `div.board.${v.key}`,
    {
      attrs: { 'data-testid': 'board', 'data-orientation': p.bottom },
      style: { aspectRatio: `${v.files} / ${v.ranks}` },
      class: { dragging: !!p.drag },
    },
    [
      svgOf(p),
      buttons(p),
      h('p#board-keys.sr-only', t('board.keys')),
    ],
  );
}

