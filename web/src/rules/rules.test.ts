import { describe, expect, it } from 'vitest';
import { variantKeys, variants } from '../variants';
import en from './rules-en';
import hi from './rules-hi';
import th from './rules-th';
import zh from './rules-zh';

describe('rules text', () => {
  for (const key of variantKeys) {
    const v = variants[key];
    const doc = en[key];
    it(`${key}: has the sections a rules page needs`, () => {
      const ids = doc.sections.map((s) => s.id);
      expect(ids).toContain('board');
      expect(ids).toContain('end');
      expect(ids).toContain('tips');
      expect(ids).toContain('faq');
      expect(new Set(ids).size).toBe(ids.length);
    });
    it(`${key}: every diagram is a real position and names real squares`, () => {
      const diagrams = doc.sections.flatMap((s) => s.blocks.flatMap((b) => ('diagram' in b ? [b.diagram] : [])));
      expect(diagrams.length).toBeGreaterThan(1);
      for (const d of diagrams) {
        const pieces = v.parseFen(d.fen).pieces;
        expect(pieces.size, d.caption).toBeGreaterThan(0);
        for (const sq of [...(d.targets ?? []), ...(d.path ?? []), ...(d.last ?? [])]) expect(v.coord(sq), `${d.caption}: ${sq}`).not.toBeNull();
        // The selected piece is on the board; destinations are empty or hold an enemy piece.
        const from = d.path?.[0];
        if (from) {
          const mover = pieces.get(from);
          expect(mover, d.caption).toBeDefined();
          for (const sq of d.targets ?? []) expect(pieces.get(sq)?.side, `${d.caption}: ${sq}`).not.toBe(mover!.side);
        }
      }
    });
  }
  it('has translations that fit the English structure', () => {
    // localize() throws on any mismatch when the module loads; check the result too.
    for (const doc of [hi, th, zh]) {
      for (const key of variantKeys) {
        expect(doc[key].sections.map((s) => s.id)).toEqual(en[key].sections.map((s) => s.id));
        expect(doc[key].intro).not.toBe(en[key].intro);
      }
    }
  });
  it('explains the Makruk piece-counting limits', () => {
    const counting = en.makruk.sections.find((s) => s.id === 'counting')!;
    const table = counting.blocks.find((b) => 'table' in b);
    expect(table && 'table' in table ? table.table.rows.map((r) => r[1]) : []).toEqual(['8', '16', '22', '32', '44', '64']);
  });
});
