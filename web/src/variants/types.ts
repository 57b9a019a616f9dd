//! What a game looks like to the client, declared as data: board size, grid, pieces,
//! square names, notation. The client has no rules engine; legality comes from the server.

import type { Side, VariantKey } from '../net/protocol';

/** A square (or point) by 0-based file and rank; rank 0 is the first player's back rank. */
export interface Coord {
  file: number;
  rank: number;
}

export interface Piece {
  role: string;
  side: Side;
}

/** Pieces by square name. */
export type Pieces = Map<string, Piece>;

export interface Position {
  pieces: Pieces;
  turn: Side;
}

/** An engine move taken apart: every square it visits, in order. */
export interface MoveSyntax {
  uci: string;
  path: string[];
  capture: boolean;
  promotion: boolean;
}

export interface RoleInfo {
  /** FEN letter (lower case; upper case is the first player). */
  letter: string;
  /** Letter used in SAN for typed moves ('' for the pawn-like piece). */
  san: string;
}

export interface Variant {
  key: VariantKey;
  files: number;
  ranks: number;
  /** Pieces stand on squares, or on the intersections of lines (Xiangqi). */
  grid: 'squares' | 'points';
  /** i18n keys of the two colours, by turn order. */
  colours: Record<Side, string>;
  roles: Record<string, RoleInfo>;
  /** More letters for the same roles (in FEN lower case, in SAN upper case). */
  aliases?: Record<string, string>;
  /** The king-like role that `check` refers to, if any. */
  royal: string | null;
  /** The role a move with `promotion` ends as (Makruk). */
  promotesTo: string | null;
  /** Whether a square can hold pieces at all (checkers: dark squares only). */
  playable(c: Coord): boolean;
  /** The square's name in engine notation, or null where no piece can stand. */
  name(c: Coord): string | null;
  coord(name: string): Coord | null;
  /** Takes an engine move apart; null if it is not this game's syntax. */
  parseMove(uci: string): MoveSyntax | null;
  parseFen(fen: string): Position;
  /** File labels for the coordinates on the board's edge. */
  fileLabel(file: number): string;
  rankLabel(rank: number): string;
}
