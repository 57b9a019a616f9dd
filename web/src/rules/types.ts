//! A rules page as data: sections of paragraphs, lists, tables and board diagrams, so that each
//! language is one file of text and the diagrams are drawn by the board component.

export interface Diagram {
  /** FEN (Makruk, Xiangqi) or PDN FEN (checkers). */
  fen: string;
  caption: string;
  /** Squares to mark as destinations. */
  targets?: string[];
  /** A selected piece and, for checkers, the landings of a jump. */
  path?: string[];
  last?: string[];
  check?: string;
  /** Checkers pieces that must capture (drawn with the dashed ring the game board uses). */
  must?: string[];
  /** Show square names (checkers numbers) on the diagram. */
  coords?: boolean;
}

export type Block =
  | { p: string }
  | { ul: string[] }
  | { table: { head: string[]; rows: string[][] } }
  | { diagram: Diagram };

export interface Section {
  id: string;
  title: string;
  blocks: Block[];
}

export interface RulesDoc {
  intro: string;
  sections: Section[];
}
