//! Where squares are drawn: display columns and rows (row 0 at the top) for an orientation,
//! and the square under a point of the board.

import type { Side } from '../net/protocol';
import type { Coord, Variant } from '../variants/types';

export interface Cell {
  col: number;
  row: number;
}

/** Drawing units per cell. */
export const CELL = 100;

export function toCell(v: Variant, bottom: Side, c: Coord): Cell {
  return bottom === 'first'
    ? { col: c.file, row: v.ranks - 1 - c.rank }
    : { col: v.files - 1 - c.file, row: c.rank };
}

export function fromCell(v: Variant, bottom: Side, cell: Cell): Coord {
  return bottom === 'first'
    ? { file: cell.col, rank: v.ranks - 1 - cell.row }
    : { file: v.files - 1 - cell.col, rank: cell.row };
}

/** Centre of a named square in drawing units, or null for a name not on this board. */
export function centre(v: Variant, bottom: Side, name: string): { x: number; y: number } | null {
  const c = v.coord(name);
  if (!c) return null;
  const { col, row } = toCell(v, bottom, c);
  return { x: col * CELL + CELL / 2, y: row * CELL + CELL / 2 };
}

/** The square under a point given as fractions (0–1) of the board's width and height. */
export function squareAt(v: Variant, bottom: Side, fx: number, fy: number): string | null {
  if (fx < 0 || fx >= 1 || fy < 0 || fy >= 1) return null;
  const cell = { col: Math.floor(fx * v.files), row: Math.floor(fy * v.ranks) };
  return v.name(fromCell(v, bottom, cell));
}

/** Every cell in reading order (top-left first) with its square name, if any. */
export function cells(v: Variant, bottom: Side): Array<Cell & { name: string | null; coord: Coord }> {
  const out = [];
  for (let row = 0; row < v.ranks; row++)
    for (let col = 0; col < v.files; col++) {
      const coord = fromCell(v, bottom, { col, row });
      out.push({ col, row, coord, name: v.name(coord) });
    }
  return out;
}

/** The next square from `name` when an arrow key moves one cell on screen. */
export function neighbour(v: Variant, bottom: Side, name: string, dcol: number, drow: number): string {
  const c = v.coord(name);
  if (!c) return name;
  let { col, row } = toCell(v, bottom, c);
  // Skip unplayable cells (checkers' light squares) by moving on in the same direction,
  // and step diagonally when a straight step would only find light squares.
  for (let i = 0; i < Math.max(v.files, v.ranks); i++) {
    col += dcol;
    row += drow;
    if (col < 0 || row < 0 || col >= v.files || row >= v.ranks) return name;
    const n = v.name(fromCell(v, bottom, { col, row }));
    if (n) return n;
    if (dcol === 0 || drow === 0) {
      for (const side of [-1, 1]) {
        const alt = { col: col + (dcol === 0 ? side : 0), row: row + (drow === 0 ? side : 0) };
        if (alt.col < 0 || alt.row < 0 || alt.col >= v.files || alt.row >= v.ranks) continue;
        const m = v.name(fromCell(v, bottom, alt));
        if (m) return m;
      }
    }
  }
  return name;
}
