// @vitest-environment happy-dom
import { readFileSync, writeFileSync } from 'node:fs';
import { attributesModule, classModule, eventListenersModule, init, styleModule } from 'snabbdom';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import type { Side } from '../net/protocol';
import { initialFens, variants } from '../variants';
import type { MoveSyntax } from '../variants/types';
import { BoardCtrl } from './ctrl';
import type { PieceStyle } from './pieces';

const patch = init([classModule, attributesModule, styleModule, eventListenersModule]);

function mount(ctrl: BoardCtrl, style: PieceStyle = 'characters'): { el: HTMLElement; redraw: () => void } {
  const host = document.createElement('div');
  document.body.replaceChildren(host);
  let vnode = patch(host, ctrl.view(style));
  const redraw = () => {
    vnode = patch(vnode, ctrl.view(style));
  };
  return { el: vnode.elm as HTMLElement, redraw };
}

declare module './ctrl' {
  interface BoardCtrl {
    view(style: PieceStyle): import('snabbdom').VNode;
  }
}

beforeAll(async () => {
  await initI18n('en');
  const { boardView } = await import('./view');
  BoardCtrl.prototype.view = function (style: PieceStyle) {
    return boardView(this.props(style, true));
  };
});

function setup(key: 'makruk' | 'xiangqi' | 'checkers', legal: string[], fen = initialFens[key], bottom: Side = 'first') {
  const v = variants[key];
  const played: MoveSyntax[] = [];
  let redraw = () => {};
  const ctrl = new BoardCtrl(v, bottom, () => redraw(), (m) => played.push(m));
  ctrl.setPosition({ pieces: v.parseFen(fen).pieces, legal, lastMove: [], check: null });
  const m = mount(ctrl);
  redraw = m.redraw;
  return { ctrl, el: m.el, played, redraw: m.redraw };
}

/** A keyboard or assistive-technology activation: a click with detail 0. */
function activate(el: HTMLElement, sq: string) {
  const b = el.querySelector<HTMLElement>(`[data-square="${sq}"]`)!;
  b.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
}

describe('board view', () => {
  it('has one labelled button per square, with test ids', () => {
    const { el } = setup('makruk', ['e3e4']);
    const buttons = el.querySelectorAll('button.sq');
    expect(buttons).toHaveLength(64);
    expect(el.querySelector('[data-testid="sq-d1"]')?.getAttribute('aria-label')).toBe('d1, White Khun');
    expect(el.querySelector('[data-testid="sq-e4"]')?.getAttribute('aria-label')).toBe('e4, empty');
    expect(el.getAttribute('data-testid')).toBe('board');
  });
  it('puts 90 points on the Xiangqi board and 32 squares on the checkers board', () => {
    expect(setup('xiangqi', []).el.querySelectorAll('button.sq')).toHaveLength(90);
    const ch = setup('checkers', []);
    expect(ch.el.querySelectorAll('button.sq')).toHaveLength(32);
    expect(ch.el.querySelector('[data-testid="sq-11"]')?.getAttribute('aria-label')).toBe('11 (c3), Black man');
  });
  it('plays a move by keyboard activation, showing the destinations in between', () => {
    const { el, played } = setup('makruk', ['b1c3', 'b1d2', 'e3e4']);
    activate(el, 'b1');
    expect(el.querySelector('[data-square="b1"]')?.getAttribute('aria-pressed')).toBe('true');
    expect(el.querySelector('[data-square="d2"]')?.getAttribute('aria-label')).toBe('d2, empty, move here');
    expect(el.querySelectorAll('circle.target')).toHaveLength(2);
    activate(el, 'c3');
    expect(played.map((m) => m.uci)).toEqual(['b1c3']);
  });
  it('enters a checkers multi-jump landing by landing and draws the path', () => {
    const { el, played } = setup('checkers', ['9x18x27', '9x18x25'], 'B:W14,22,23:B9');
    expect(el.querySelector('[data-square="9"]')?.getAttribute('aria-label')).toContain('must capture');
    expect(el.querySelectorAll('circle.must')).toHaveLength(1);
    activate(el, '9');
    activate(el, '18');
    expect(played).toEqual([]);
    expect(el.querySelector('polyline.path')?.getAttribute('points')).toBeTruthy();
    expect(el.querySelectorAll('circle.target')).toHaveLength(2);
    activate(el, '25');
    expect(played.map((m) => m.uci)).toEqual(['9x18x25']);
  });
  it('moves keyboard focus with the arrow keys (roving tabindex)', () => {
    const { el, ctrl } = setup('makruk', ['e3e4']);
    const e3 = el.querySelector<HTMLElement>('[data-square="e3"]')!;
    expect(e3.tabIndex).toBe(0);
    e3.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }));
    expect(ctrl.focus).toBe('e4');
    expect(el.querySelector<HTMLElement>('[data-square="e4"]')!.tabIndex).toBe(0);
    expect(e3.tabIndex).toBe(-1);
  });
  it('plays a move by dragging a piece (pointer events)', () => {
    const { el, played } = setup('makruk', ['e3e4', 'b1d2']);
    // An 800 × 800 board at the page's origin: each square is 100 px.
    el.getBoundingClientRect = () => ({ left: 0, top: 0, width: 800, height: 800, right: 800, bottom: 800, x: 0, y: 0, toJSON() {} }) as DOMRect;
    const at = (sq: string) => {
      const c = variants.makruk.coord(sq)!;
      return { clientX: c.file * 100 + 50, clientY: (7 - c.rank) * 100 + 50 };
    };
    const e3 = el.querySelector<HTMLElement>('[data-square="e3"]')!;
    e3.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, pointerId: 1, pointerType: 'mouse', ...at('e3') }));
    window.dispatchEvent(new PointerEvent('pointermove', { pointerId: 1, ...at('e4') }));
    expect(el.classList.contains('dragging')).toBe(true);
    window.dispatchEvent(new PointerEvent('pointerup', { pointerId: 1, ...at('e4') }));
    expect(played.map((m) => m.uci)).toEqual(['e3e4']);
  });

  it('treats a tap on a piece and a tap on its destination as a move (touch)', () => {
    const { el, played } = setup('checkers', ['11-15', '11-16']);
    el.getBoundingClientRect = () => ({ left: 0, top: 0, width: 800, height: 800, right: 800, bottom: 800, x: 0, y: 0, toJSON() {} }) as DOMRect;
    const at = (sq: string) => {
      const c = variants.checkers.coord(sq)!;
      return { clientX: c.file * 100 + 50, clientY: (7 - c.rank) * 100 + 50 };
    };
    const tap = (sq: string) => {
      el.querySelector<HTMLElement>(`[data-square="${sq}"]`)!.dispatchEvent(
        new PointerEvent('pointerdown', { bubbles: true, pointerId: 2, pointerType: 'touch', ...at(sq) }),
      );
      window.dispatchEvent(new PointerEvent('pointerup', { pointerId: 2, ...at(sq) }));
    };
    tap('11');
    expect(played).toEqual([]);
    tap('16');
    expect(played.map((m) => m.uci)).toEqual(['11-16']);
  });

  it('flips', () => {
    const { el, ctrl, redraw } = setup('xiangqi', []);
    expect(el.querySelector('button.sq')?.getAttribute('data-square')).toBe('a10');
    ctrl.flip();
    redraw();
    expect(el.querySelector('button.sq')?.getAttribute('data-square')).toBe('i1');
  });
});

// `DUMP_SVG=dir npx vitest run src/board/view.test.ts` writes each board's drawing, to look at.
describe.runIf(!!process.env.DUMP_SVG)('drawings', () => {
  it('writes SVG files', () => {
    const css = readFileSync('src/styles.css', 'utf8');
    for (const [key, style] of [['makruk', 'characters'], ['xiangqi', 'characters'], ['xiangqi', 'pictures'], ['checkers', 'characters']] as const) {
      const v = variants[key];
      const fen = key === 'checkers' ? 'B:W18,21,23,24,K26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,K12' : initialFens[key];
      const ctrl = new BoardCtrl(v, 'first', () => {}, () => {});
      ctrl.setPosition({ pieces: v.parseFen(fen).pieces, legal: key === 'checkers' ? ['9x14'] : [], lastMove: [], check: null });
      const { el } = mount(ctrl, style);
      const svg = el.querySelector('svg')!;
      svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      svg.setAttribute('class', `${svg.getAttribute('class')} board ${key}`);
      const out = svg.outerHTML.replace(/style="transform: translate\(([-\d.]+)px, ([-\d.]+)px\);?"/g, 'transform="translate($1 $2)"');
      writeFileSync(`${process.env.DUMP_SVG}/${key}-${style}.svg`, out.replace('>', `><style>${css}</style>`));
    }
    // Highlights: a multi-jump half entered, a Makruk check with a Bia ngai and the last move.
    const scenes = [
      { key: 'checkers', fen: 'B:W14,23,22,K5:B9,K1', legal: ['9x18x27', '9x18x25'], clicks: ['9', '18'], last: ['26', '22'], check: null },
      { key: 'makruk', fen: '4k3/3M~4/8/8/8/8/3r4/3K4 w', legal: ['d1c1', 'd1e1', 'd1d2'], clicks: ['d1'], last: ['d8', 'd2'], check: 'd1' },
      { key: 'xiangqi', fen: '3ak4/4a4/9/9/9/9/9/9/4r4/3K5 w', legal: ['d1d2', 'd1e1'], clicks: ['d1'], last: ['e9', 'e2'], check: 'd1' },
    ] as const;
    for (const sc of scenes) {
      const v = variants[sc.key];
      const ctrl = new BoardCtrl(v, 'first', () => {}, () => {});
      ctrl.setPosition({ pieces: v.parseFen(sc.fen).pieces, legal: [...sc.legal], lastMove: [...sc.last], check: sc.check });
      for (const c of sc.clicks) ctrl.select(c);
      const { el } = mount(ctrl, 'pictures');
      const svg = el.querySelector('svg')!;
      svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
      svg.setAttribute('class', `${svg.getAttribute('class')} board ${sc.key}`);
      const out = svg.outerHTML.replace(/style="transform: translate\(([-\d.]+)px, ([-\d.]+)px\);?"/g, 'transform="translate($1 $2)"');
      writeFileSync(`${process.env.DUMP_SVG}/${sc.key}-scene.svg`, out.replace('>', `><style>${css}</style>`));
    }
  });
});
