import { describe, expect, it } from 'vitest';
import { variants } from '../variants';
import { click, moveTable, mustCapture, nextTargets, resolveTyped, type Step } from './input';

const { makruk, xiangqi, checkers } = variants;

/** Clicks squares in turn; returns the last step. */
function clicks(moves: ReturnType<typeof moveTable>, squares: string[]): Step {
  let step: Step = { prefix: [], play: null };
  for (const sq of squares) step = click(moves, step.prefix, sq);
  return step;
}

describe('click-click input', () => {
  const moves = moveTable(makruk, ['e3e4', 'd3d4', 'b1c3', 'b1d2', 'e5d6m']);
  it('selects a movable piece and shows its destinations', () => {
    const s = clicks(moves, ['b1']);
    expect(s.prefix).toEqual(['b1']);
    expect(nextTargets(moves, s.prefix).sort()).toEqual(['c3', 'd2']);
  });
  it('plays on the second click', () => {
    expect(clicks(moves, ['b1', 'c3']).play?.uci).toBe('b1c3');
  });
  it('ignores squares that cannot move, and deselects on a second click', () => {
    expect(clicks(moves, ['a1']).prefix).toEqual([]);
    expect(clicks(moves, ['b1', 'b1']).prefix).toEqual([]);
  });
  it('switches to another own piece', () => {
    expect(clicks(moves, ['b1', 'e3']).prefix).toEqual(['e3']);
  });
  it('promotes automatically', () => {
    expect(clicks(moves, ['e5', 'd6']).play?.uci).toBe('e5d6m');
  });
  it('clears on a square no move reaches', () => {
    expect(clicks(moves, ['b1', 'h8'])).toEqual({ prefix: [], play: null });
  });
});

describe('checkers multi-jumps', () => {
  // Two jumps from 9 share their first landing; a third goes elsewhere.
  const moves = moveTable(checkers, ['9x18x27', '9x18x25', '10x17']);
  it('marks the pieces that must capture', () => {
    expect([...mustCapture(moves)].sort()).toEqual(['10', '9']);
    expect(mustCapture(moveTable(checkers, ['11-15', '11-16'])).size).toBe(0);
  });
  it('builds the path landing by landing, resolving the ambiguous prefix', () => {
    const first = clicks(moves, ['9', '18']);
    expect(first).toEqual({ prefix: ['9', '18'], play: null });
    expect(nextTargets(moves, first.prefix).sort()).toEqual(['25', '27']);
    expect(clicks(moves, ['9', '18', '27']).play?.uci).toBe('9x18x27');
    expect(clicks(moves, ['9', '18', '25']).play?.uci).toBe('9x18x25');
  });
  it('plays a single jump at once', () => {
    expect(clicks(moves, ['10', '17']).play?.uci).toBe('10x17');
  });
  it('accepts the final square when only one move ends there', () => {
    expect(clicks(moves, ['9', '27']).play?.uci).toBe('9x18x27');
  });
  it('undoes landings when the path is clicked back', () => {
    expect(clicks(moves, ['9', '18', '9']).prefix).toEqual(['9']);
  });
  it('keeps a long chain going to its end', () => {
    const chain = moveTable(checkers, ['1x10x19x28']);
    expect(clicks(chain, ['1', '10', '19']).prefix).toEqual(['1', '10', '19']);
    expect(clicks(chain, ['1', '10', '19', '28']).play?.uci).toBe('1x10x19x28');
  });
});

describe('typed moves', () => {
  it('accepts engine notation, Makruk promotion without the m', () => {
    const pos = makruk.parseFen('4k3/8/8/4P3/8/8/8/3K4 w - - 0 1');
    const moves = moveTable(makruk, ['e5e6m', 'd1d2']);
    expect(resolveTyped(makruk, moves, pos.pieces, 'e5e6')).toMatchObject({ ok: { uci: 'e5e6m' } });
    expect(resolveTyped(makruk, moves, pos.pieces, ' D1D2 ')).toMatchObject({ ok: { uci: 'd1d2' } });
  });
  it('accepts SAN resolved against the board', () => {
    const pos = makruk.parseFen('rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1');
    const moves = moveTable(makruk, ['e3e4', 'b1c3', 'b1d2', 'g1f3', 'g1e2']);
    expect(resolveTyped(makruk, moves, pos.pieces, 'e4')).toMatchObject({ ok: { uci: 'e3e4' } });
    expect(resolveTyped(makruk, moves, pos.pieces, 'Nc3')).toMatchObject({ ok: { uci: 'b1c3' } });
    expect(resolveTyped(makruk, moves, pos.pieces, 'Nd2+')).toMatchObject({ ok: { uci: 'b1d2' } });
    expect(resolveTyped(makruk, moves, pos.pieces, 'Na5')).toEqual({ error: 'illegal' });
    expect(resolveTyped(makruk, moves, pos.pieces, 'hello')).toEqual({ error: 'syntax' });
  });
  it('reports ambiguity and resolves it with a file', () => {
    const pos = xiangqi.parseFen('4k4/9/9/9/9/9/9/9/9/R3K3R w');
    const moves = moveTable(xiangqi, ['a1e1', 'i1e1'].map((m) => m.replace('e1', 'd1')).concat(['a1f1', 'i1f1']));
    expect(resolveTyped(xiangqi, moves, pos.pieces, 'Rf1')).toEqual({ error: 'ambiguous' });
    expect(resolveTyped(xiangqi, moves, pos.pieces, 'Rif1')).toMatchObject({ ok: { uci: 'i1f1' } });
  });
  it('accepts checkers first and last squares', () => {
    const moves = moveTable(checkers, ['9x18x27', '9x18x25']);
    const none = new Map();
    expect(resolveTyped(checkers, moves, none, '9x27')).toMatchObject({ ok: { uci: '9x18x27' } });
    expect(resolveTyped(checkers, moves, none, '9x18')).toEqual({ error: 'illegal' });
    expect(resolveTyped(checkers, moves, none, '9 18 25')).toMatchObject({ ok: { uci: '9x18x25' } });
  });
});
