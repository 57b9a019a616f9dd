//! Move input as a pure state machine over the server's legal moves: the player builds a path
//! square by square (click-click, drag, or a checkers multi-jump landing by landing). No rules
//! here — only prefix matching against the `legal` list.

import type { MoveSyntax, Pieces, Variant } from '../variants/types';

export type Path = readonly string[];

/** The legal moves taken apart, for one position. */
export function moveTable(variant: Variant, legal: readonly string[]): MoveSyntax[] {
  const out: MoveSyntax[] = [];
  for (const uci of legal) {
    const m = variant.parseMove(uci);
    if (m) out.push(m);
  }
  return out;
}

const startsWith = (path: Path, prefix: Path): boolean =>
  prefix.length <= path.length && prefix.every((s, i) => path[i] === s);

export const candidates = (moves: readonly MoveSyntax[], prefix: Path): MoveSyntax[] =>
  prefix.length ? moves.filter((m) => startsWith(m.path, prefix)) : [];

/** Squares from which a move can start. */
export const movableFrom = (moves: readonly MoveSyntax[]): Set<string> => new Set(moves.map((m) => m.path[0]!));

/** Where the next click may land, after `prefix`. */
export function nextTargets(moves: readonly MoveSyntax[], prefix: Path): string[] {
  const out = new Set<string>();
  for (const m of candidates(moves, prefix)) {
    const next = m.path[prefix.length];
    if (next !== undefined) out.add(next);
  }
  return [...out];
}

/** Squares of pieces that must capture (checkers: when any capture is legal, all moves are). */
export function mustCapture(moves: readonly MoveSyntax[]): Set<string> {
  return new Set(moves.filter((m) => m.capture).map((m) => m.path[0]!));
}

export interface Step {
  /** The path built so far (empty: nothing selected). */
  prefix: string[];
  /** A complete move to send, if this click finished one. */
  play: MoveSyntax | null;
}

/** One click (or drop) on `sq` with `prefix` already built. */
export function click(moves: readonly MoveSyntax[], prefix: Path, sq: string): Step {
  const starts = movableFrom(moves);
  if (prefix.length === 0) return { prefix: starts.has(sq) ? [sq] : [], play: null };

  const ext = [...prefix, sq];
  const cands = candidates(moves, ext);
  if (cands.length) {
    // A path that ends here is complete: a legal capture sequence never stops where it could
    // go on, so no other legal move extends it.
    const done = cands.find((m) => m.path.length === ext.length);
    if (done) return { prefix: [], play: done };
    return { prefix: ext, play: null };
  }

  // A shortcut: the final landing square of exactly one move that continues this prefix.
  const byEnd = candidates(moves, prefix).filter((m) => m.path[m.path.length - 1] === sq);
  if (byEnd.length === 1) return { prefix: [], play: byEnd[0]! };

  // Clicking back on the path undoes the landings after it; on the piece itself, deselects.
  const back = prefix.indexOf(sq);
  if (back === 0 && prefix.length === 1) return { prefix: [], play: null };
  if (back >= 0) return { prefix: prefix.slice(0, back + 1), play: null };

  return { prefix: starts.has(sq) ? [sq] : [], play: null };
}

export type Typed = { ok: MoveSyntax } | { error: 'syntax' | 'illegal' | 'ambiguous' };

const oneOf = (ms: MoveSyntax[]): Typed =>
  ms.length === 1 ? { ok: ms[0]! } : ms.length ? { error: 'ambiguous' } : { error: 'illegal' };

/**
 * A typed move: engine notation (`e3e4`, `a10a9`, `11-15`, `9x18x27`), checkers' first and last
 * squares (`9x27`), or SAN as shown in the move list (`Ne2`, `Rxa8`, `e4`, `Cbe3`).
 */
export function resolveTyped(variant: Variant, moves: readonly MoveSyntax[], pieces: Pieces, input: string): Typed {
  const text = input.trim().replace(/[+#!?]+$/, '');
  if (!text) return { error: 'syntax' };
  const exact = moves.find((m) => m.uci === text.toLowerCase() || m.uci === `${text.toLowerCase()}m`);
  if (exact) return { ok: exact };

  if (variant.key === 'checkers') {
    const nums = text.split(/\s*[-x×:\s]\s*/).filter(Boolean);
    if (nums.length < 2 || nums.some((n) => !/^\d{1,2}$/.test(n))) return { error: 'syntax' };
    return oneOf(
      moves.filter((m) => {
        if (m.path[0] !== nums[0] || m.path[m.path.length - 1] !== nums[nums.length - 1]) return false;
        let i = 0;
        for (const s of m.path) if (s === nums[i]) i++;
        return i === nums.length;
      }),
    );
  }

  const san = /^([A-Z])?([a-i])?(10|[1-9])?[x:-]?([a-i])(10|[1-9])(?:=?[A-Z])?$/.exec(text.replace(/\s+/g, ''));
  if (!san) return { error: 'syntax' };
  const [, letter = '', fromFile, fromRank, toFile, toRank] = san;
  const to = `${toFile}${toRank}`;
  const roles = new Set(
    Object.entries(variant.roles)
      .filter(([, r]) => r.san === letter)
      .map(([role]) => role),
  );
  for (const [alias, role] of Object.entries(variant.aliases ?? {})) if (alias.toUpperCase() === letter) roles.add(role);
  return oneOf(
    moves.filter((m) => {
      const from = m.path[0]!;
      const piece = pieces.get(from);
      if (m.path[m.path.length - 1] !== to || !piece || !roles.has(piece.role)) return false;
      const c = variant.coord(from);
      if (!c) return false;
      if (fromFile && variant.fileLabel(c.file) !== fromFile) return false;
      if (fromRank && variant.rankLabel(c.rank) !== fromRank) return false;
      return true;
    }),
  );
}
