import { describe, expect, it } from 'vitest';
import { coordToPdn, pdnToCoord } from './checkers';
import { initialFens, variants } from './index';
import { markPromoted } from './makruk';

const { makruk, xiangqi, checkers } = variants;

describe('checkers PDN geometry', () => {
  it('puts 1–4 on rank 1 from g1 to a1 and 29–32 on rank 8', () => {
    expect(['1', '2', '3', '4', '5', '8', '29', '32'].map((n) => {
      const c = checkers.coord(n)!;
      return `${checkers.fileLabel(c.file)}${checkers.rankLabel(c.rank)}`;
    })).toEqual(['g1', 'e1', 'c1', 'a1', 'h2', 'b2', 'h8', 'b8']);
  });
  it('numbers exactly the 32 dark squares, both ways', () => {
    const seen = new Set<number>();
    for (let rank = 0; rank < 8; rank++)
      for (let file = 0; file < 8; file++) {
        const n = coordToPdn({ file, rank });
        expect(n !== null).toBe(checkers.playable({ file, rank }));
        if (n !== null) {
          expect(pdnToCoord(n)).toEqual({ file, rank });
          seen.add(n);
        }
      }
    expect(seen.size).toBe(32);
  });
  it('has a dark square at each player’s left corner', () => {
    expect(checkers.name({ file: 0, rank: 0 })).toBe('4');
    expect(checkers.name({ file: 7, rank: 7 })).toBe('29');
  });
  it('reads PDN FEN with kings and ranges', () => {
    const pos = checkers.parseFen('W:W21-23,K30:B1,K12.');
    expect(pos.turn).toBe('second');
    expect(pos.pieces.get('22')).toEqual({ role: 'man', side: 'second' });
    expect(pos.pieces.get('30')).toEqual({ role: 'king', side: 'second' });
    expect(pos.pieces.get('12')).toEqual({ role: 'king', side: 'first' });
    expect(pos.pieces.size).toBe(6);
    expect(checkers.parseFen(initialFens.checkers).pieces.size).toBe(24);
  });
  it('parses steps and jump chains', () => {
    expect(checkers.parseMove('11-15')).toMatchObject({ path: ['11', '15'], capture: false });
    expect(checkers.parseMove('9x18x27')).toMatchObject({ path: ['9', '18', '27'], capture: true });
    expect(checkers.parseMove('11-15-18')).toBeNull();
    expect(checkers.parseMove('0-4')).toBeNull();
    expect(checkers.parseMove('33x24')).toBeNull();
  });
});

describe('makruk', () => {
  it('reads the initial position: Khun d1 / e8, Met e1 / d8, Bia on ranks 3 and 6', () => {
    const { pieces, turn } = makruk.parseFen(initialFens.makruk);
    expect(turn).toBe('first');
    expect(pieces.get('d1')).toEqual({ role: 'khun', side: 'first' });
    expect(pieces.get('e1')).toEqual({ role: 'met', side: 'first' });
    expect(pieces.get('e8')).toEqual({ role: 'khun', side: 'second' });
    expect(pieces.get('d8')).toEqual({ role: 'met', side: 'second' });
    expect(pieces.get('c1')?.role).toBe('khon');
    expect(pieces.get('a3')?.role).toBe('bia');
    expect(pieces.get('h6')).toEqual({ role: 'bia', side: 'second' });
    expect(pieces.size).toBe(32);
  });
  it('parses moves and promotions', () => {
    expect(makruk.parseMove('e3e4')).toMatchObject({ path: ['e3', 'e4'], promotion: false });
    expect(makruk.parseMove('e5d6m')).toMatchObject({ path: ['e5', 'd6'], promotion: true });
    expect(makruk.parseMove('e3e9')).toBeNull();
  });
  it('reads `m~` as a Bia ngai and finds unmarked ones from the move list', () => {
    expect(makruk.parseFen('4k3/8/3M~4/8/8/8/8/3K4 w - - 0 1').pieces.get('d6')?.role).toBe('biaNgai');
    const initial = makruk.parseFen('4k3/8/8/4P3/8/8/8/3K4 w - - 0 1').pieces;
    const now = makruk.parseFen('4k3/8/8/8/8/8/8/3K1M2 w - - 0 1').pieces;
    const marked = markPromoted(now, initial, ['e5e6m', 'e8d8', 'e6f5', 'd8e8', 'f5f1']);
    expect(marked.get('f1')?.role).toBe('biaNgai');
  });
});

describe('xiangqi', () => {
  it('reads the initial position with ten ranks', () => {
    const { pieces } = xiangqi.parseFen(initialFens.xiangqi);
    expect(pieces.get('e1')).toEqual({ role: 'general', side: 'first' });
    expect(pieces.get('e10')).toEqual({ role: 'general', side: 'second' });
    expect(pieces.get('b3')?.role).toBe('cannon');
    expect(pieces.get('i10')?.role).toBe('chariot');
    expect(pieces.size).toBe(32);
  });
  it('accepts the h/e spellings', () => {
    expect(xiangqi.parseFen('4k4/9/9/9/9/9/9/9/9/3HKE3 w').pieces.get('d1')?.role).toBe('horse');
  });
  it('parses two-digit ranks', () => {
    expect(xiangqi.parseMove('a10a9')?.path).toEqual(['a10', 'a9']);
    expect(xiangqi.parseMove('h3e3')?.path).toEqual(['h3', 'e3']);
    expect(xiangqi.parseMove('a11a10')).toBeNull();
    expect(xiangqi.coord('i10')).toEqual({ file: 8, rank: 9 });
    expect(xiangqi.coord('j1')).toBeNull();
  });
});
