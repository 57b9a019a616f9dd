//! The board widget's controller. API: `setPosition` (pieces, legal moves, highlights) after
//! every server state, `flip`, `props()` for `boardView`, and the `onMove` callback with a
//! complete legal move. Click-click, drag and keyboard all go through `input.ts`.

import type { Side } from '../net/protocol';
import type { MoveSyntax, Pieces, Variant } from '../variants/types';
import { squareAt, neighbour } from './geometry';
import { click, movableFrom, moveTable, mustCapture, nextTargets } from './input';
import type { PieceStyle } from './pieces';
import { carryKeys } from './preview';
import type { BoardProps } from './view';

export interface BoardPosition {
  pieces: Pieces;
  /** Legal moves of the player at this board; empty when it is not their turn. */
  legal: readonly string[];
  lastMove: readonly string[];
  check: string | null;
  /** The path of the move that led here, to slide the moved piece. */
  moved?: readonly string[] | null;
}

interface Drag {
  from: string;
  pointer: number;
  x0: number;
  y0: number;
  x: number;
  y: number;
  moved: boolean;
  /** The piece was already selected: a tap without moving deselects it. */
  wasSelected: boolean;
  el: HTMLElement;
}

export class BoardCtrl {
  pieces: Pieces = new Map();
  moves: MoveSyntax[] = [];
  lastMove: readonly string[] = [];
  check: string | null = null;
  prefix: string[] = [];
  focus: string | null = null;
  drag: Drag | null = null;
  keys = new Map<string, string>();
  private keySeq = 0;

  constructor(
    readonly variant: Variant,
    public bottom: Side,
    private readonly redraw: () => void,
    private readonly onMove: (m: MoveSyntax) => void,
  ) {}

  setPosition(p: BoardPosition): void {
    this.keys = carryKeys(this.keys, this.pieces, p.pieces, p.moved ?? null, () => `p${this.keySeq++}`);
    this.pieces = p.pieces;
    this.moves = moveTable(this.variant, p.legal);
    this.lastMove = p.lastMove;
    this.check = p.check;
    // Keep a selection only if it still leads somewhere.
    if (this.prefix.length && !nextTargets(this.moves, this.prefix).length) this.prefix = [];
  }

  flip(): void {
    this.bottom = this.bottom === 'first' ? 'second' : 'first';
  }

  props(style: PieceStyle, coords: boolean): BoardProps {
    const d = this.drag;
    return {
      variant: this.variant,
      pieces: this.pieces,
      keys: this.keys,
      bottom: this.bottom,
      prefix: this.prefix,
      targets: nextTargets(this.moves, this.prefix),
      lastMove: this.lastMove,
      check: this.check,
      mustCapture: mustCapture(this.moves),
      movable: movableFrom(this.moves),
      style,
      coords,
      focus: this.focus,
      drag: d && d.moved ? { from: d.from, x: d.x, y: d.y } : null,
      on: {
        down: (sq, ev) => this.down(sq, ev),
        click: (sq, ev) => {
          // Real pointer clicks are handled on pointerdown/up; keyboard and assistive
          // technology send clicks with detail 0.
          if (ev.detail === 0) this.select(sq);
        },
        key: (sq, ev) => this.key(sq, ev),
      },
    };
  }

  /** A click (or Enter) on a square. */
  select(sq: string): void {
    this.focus = sq;
    const step = click(this.moves, this.prefix, sq);
    this.prefix = step.prefix;
    if (step.play) this.onMove(step.play);
    this.redraw();
  }

  private fractions(ev: PointerEvent, el: HTMLElement): { fx: number; fy: number } {
    const r = el.getBoundingClientRect();
    return { fx: (ev.clientX - r.left) / r.width, fy: (ev.clientY - r.top) / r.height };
  }

  private down(sq: string, ev: PointerEvent): void {
    if (ev.button !== 0 && ev.pointerType === 'mouse') return;
    const el = (ev.currentTarget as HTMLElement | null)?.closest('.board') as HTMLElement | null;
    if (!el) return;
    ev.preventDefault();
    const starts = movableFrom(this.moves);
    const wasSelected = this.prefix.length === 1 && this.prefix[0] === sq;
    const continuing = this.prefix.length > 0 && !wasSelected && !(this.prefix.length === 1 && starts.has(sq));
    if (continuing || !starts.has(sq)) {
      this.select(sq);
      return;
    }
    if (!wasSelected) this.select(sq);
    const { fx, fy } = this.fractions(ev, el);
    const x = fx * this.variant.files;
    const y = fy * this.variant.ranks;
    this.drag = { from: sq, pointer: ev.pointerId, x0: x, y0: y, x, y, moved: false, wasSelected, el };
    const move = (e: PointerEvent) => this.dragMove(e);
    const up = (e: PointerEvent) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      this.dragEnd(e);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }

  private dragMove(ev: PointerEvent): void {
    const d = this.drag;
    if (!d || ev.pointerId !== d.pointer) return;
    const { fx, fy } = this.fractions(ev, d.el);
    d.x = fx * this.variant.files;
    d.y = fy * this.variant.ranks;
    if (Math.hypot(d.x - d.x0, d.y - d.y0) > 0.2) d.moved = true;
    if (d.moved) this.redraw();
  }

  private dragEnd(ev: PointerEvent): void {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (ev.type === 'pointercancel') {
      this.redraw();
      return;
    }
    const { fx, fy } = this.fractions(ev, d.el);
    const sq = squareAt(this.variant, this.bottom, fx, fy);
    if (!d.moved || sq === d.from) {
      if (d.wasSelected && !d.moved) this.prefix = [];
      this.redraw();
      return;
    }
    if (sq) this.select(sq);
    else {
      this.prefix = [];
      this.redraw();
    }
  }

  private key(sq: string, ev: KeyboardEvent): void {
    const dirs: Record<string, [number, number]> = {
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
    };
    const dir = dirs[ev.key];
    if (dir) {
      ev.preventDefault();
      const next = neighbour(this.variant, this.bottom, sq, dir[0], dir[1]);
      this.focus = next;
      this.redraw();
      const root = (ev.currentTarget as HTMLElement).parentElement;
      root?.querySelector<HTMLElement>(`[data-square="${next}"]`)?.focus();
    } else if (ev.key === 'Escape') {
      this.prefix = [];
      this.redraw();
    }
  }
}
