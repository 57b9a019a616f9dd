// WCAG AA contrast of the colour pairs the stylesheet uses: 4.5:1 for text, 3:1 for large
// text, focus rings and meaningful graphics (pieces on the board, clock states).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

const css = readFileSync('src/styles.css', 'utf8').toLowerCase();

// [what, foreground, background, minimum]
const pairs: Array<[string, string, string, number]> = [
  ['body text', '#1f1a14', '#faf6ef', 4.5],
  ['muted text on page', '#5c5247', '#faf6ef', 4.5],
  ['muted text on panel', '#5c5247', '#ffffff', 4.5],
  ['muted text on clock', '#5c5247', '#efe7da', 4.5],
  ['links', '#7a3410', '#faf6ef', 4.5],
  ['primary button', '#ffffff', '#8a3b12', 4.5],
  ['primary button hover', '#ffffff', '#6f2f0e', 4.5],
  ['errors', '#a1160a', '#ffffff', 4.5],
  ['errors on page', '#a1160a', '#faf6ef', 4.5],
  ['danger button / low clock', '#ffffff', '#a1160a', 4.5],
  ['header', '#ffffff', '#3d2613', 4.5],
  ['header logo', '#f2c572', '#3d2613', 4.5],
  ['running clock', '#ffffff', '#2f4a1e', 4.5],
  ['running clock periods', '#e4f0d8', '#2f4a1e', 4.5],
  ['connected', '#1d6b2a', '#ffffff', 4.5],
  ['offer / warning text', '#1f1a14', '#fff4d6', 4.5],
  ['result banner', '#1f1a14', '#f1dcc8', 4.5],
  ['focus ring on page', '#1a5fb4', '#faf6ef', 3],
  ['focus ring on board', '#1a5fb4', '#e2c08d', 3],
  ['board coordinates', '#3d2613', '#e2c08d', 4.5],
  ['checkers numbers', '#fbefd9', '#8b5a34', 4.5],
  ['makruk white piece outline', '#2e2013', '#f7efdc', 3],
  ['makruk black piece on board', '#2a211b', '#e2c08d', 3],
  ['xiangqi red glyph', '#b0201a', '#f6e3b8', 4.5],
  ['xiangqi black glyph', '#1e1e1e', '#f6e3b8', 4.5],
  ['checkers black piece on dark square', '#0d0d0d', '#8b5a34', 3],
  ['checkers white piece on dark square', '#f4efe4', '#8b5a34', 3],
  ['button border', '#8c7f6e', '#ffffff', 3],
  ['focus ring in the header', '#f2c572', '#3d2613', 3],
  ['header button border', '#b79a7a', '#3d2613', 3],
  ['inner focus ring on a dark checkers square', '#ffffff', '#8b5a34', 3],
  ['xiangqi coordinates', '#3d2613', '#ecd096', 4.5],
  ['checkers coordinates on light squares', '#3d2613', '#f1e0c0', 4.5],
  ['diagram coordinates on panel', '#3d2613', '#ffffff', 4.5],
  ['muted caption on panel', '#5c5247', '#ffffff', 4.5],
  ['invitation panel text', '#1f1a14', '#eef5e9', 4.5],
  ['selected move in the list', '#1f1a14', '#f1dcc8', 4.5],
  ['checkers crown on a black man', '#e0a82e', '#2b2b2b', 3],
];

// The focus ring on the board must show on every square colour: at least one of its two
// rings (blue outside, white inside) reaches 3:1 on each board background.
describe('board focus ring', () => {
  for (const bg of ['#e2c08d', '#ecd096', '#f1e0c0', '#8b5a34']) {
    it(`is visible on ${bg}`, () => {
      expect(css).toContain(bg);
      expect(Math.max(contrast('#1a5fb4', bg), contrast('#ffffff', bg))).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('colour contrast (WCAG AA)', () => {
  for (const [what, fg, bg, min] of pairs) {
    it(`${what}: ${fg} on ${bg} ≥ ${min}`, () => {
      expect(css).toContain(fg);
      expect(css).toContain(bg);
      expect(contrast(fg, bg)).toBeGreaterThanOrEqual(min);
    });
  }
});
