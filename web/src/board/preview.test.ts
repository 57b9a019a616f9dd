import { describe, expect, it } from 'vitest';
import { variants } from '../variants';
import { applyPreview, carryKeys } from './preview';

const { makruk, checkers } = variants;

describe('applyPreview', () => {
  it('removes the piece between each landing', () => {
    // 9 = g3, 14 = f4, 18 = e5, 23 = d6, 27 = c7: two jumps up the long diagonal.
    const pieces = checkers.parseFen('B:W14,23:B9').pieces;
    const out = applyPreview(checkers, pieces, checkers.parseMove('9x18x27')!);
    expect([...out.keys()]).toEqual(['27']);
  });
  it('crowns a man that reaches the far rank', () => {
    // 26 = e7, 30 = f8.
    const out = applyPreview(checkers, checkers.parseFen('B:W1:B26').pieces, checkers.parseMove('26-30')!);
    expect(out.get('30')).toEqual({ role: 'king', side: 'first' });
    expect(applyPreview(checkers, checkers.parseFen('B:W1:B22').pieces, checkers.parseMove('22-26')!).get('26')?.role).toBe('man');
  });
  it('promotes a Makruk Bia', () => {
    const out = applyPreview(makruk, makruk.parseFen('4k3/8/8/4P3/8/8/8/3K4 w').pieces, makruk.parseMove('e5e6m')!);
    expect(out.get('e6')).toEqual({ role: 'biaNgai', side: 'first' });
    expect(out.has('e5')).toBe(false);
  });
});

describe('carryKeys', () => {
  it('lets the moved piece keep its key', () => {
    const before = makruk.parseFen('4k3/8/8/4P3/8/8/8/3K4 w').pieces;
    const after = makruk.parseFen('4k3/8/4P3/8/8/8/8/3K4 b').pieces;
    let n = 0;
    const k0 = carryKeys(new Map(), new Map(), before, null, () => `k${n++}`);
    const k1 = carryKeys(k0, before, after, ['e5', 'e6'], () => `k${n++}`);
    expect(k1.get('e6')).toBe(k0.get('e5'));
    expect(k1.get('e8')).toBe(k0.get('e8'));
    expect(k1.get('d1')).toBe(k0.get('d1'));
  });
});
