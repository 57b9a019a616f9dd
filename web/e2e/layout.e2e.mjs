// End-to-end tests of layout and accessibility: the phone header, keyboard reach and focus
// rings, and the game page laid out from protocol states (split from site.e2e.mjs so that
// each file stays within the runner's per-file time limit).
// Run by scripts/e2e.sh (or `E2E_BASE_URL=http://127.0.0.1:PORT npm run e2e` in web/).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  horizontalOverflow,
  launch,
  newContext,
  overflowingElements,
  pageWithSession,
  shot,
  uniqueNick,
} from './lib.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Runs `fn(ctx)` in a fresh browser context and always closes it. */
async function withContext(opts, fn) {
  const ctx = await newContext(browser, opts);
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

describe('phone header', () => {
  it('keeps to two lines on a 360 px phone, with the nickname shown', () =>
    withContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }, async (ctx) => {
      const nick = uniqueNick('hdr');
      const page = await pageWithSession(ctx, nick, '/');
      await page.goto('/rules/xiangqi');
      await page.locator('figure.diagram svg').first().waitFor();
      const rows = await page.locator('header.top').evaluate((hd) => {
        const tops = new Set();
        for (const el of hd.querySelectorAll('.brand, nav a, .tools > *')) {
          const r = el.getBoundingClientRect();
          if (r.width > 0) tops.add(Math.round(r.top / 8));
        }
        return tops.size;
      });
      await shot(page, 'phone-header', { fullPage: false });
      assert.ok(rows <= 2, `header items sit on ${rows} lines`);
      assert.equal(await page.getByTestId('nickname').getAttribute('aria-label'), `Playing as ${nick}`);
      // Diagram coordinates: at least 10 CSS px high on a phone.
      const h = await page.locator('figure.diagram .coord.out').first().evaluate((el) => el.getBoundingClientRect().height);
      assert.ok(h >= 10, `diagram coordinates are ${h.toFixed(1)} px high`);
    }));
});

// The server does not create games yet (POST /api/games is 404), so these tests answer the
// page's game socket themselves with protocol v1 `full` messages, to look at the game page's
// layout and words on a phone and a computer. They test the client only, not the server.
describe('game page layout (socket answered by the test)', () => {
  const phone = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  const players = (secondConnected = true) => ({
    first: { id: 1, name: 'Somchai', ai: null, connected: true },
    second: { id: 2, name: 'Mei', ai: null, connected: secondConnected },
  });
  const base = {
    mode: 'friend',
    level: null,
    status: 'playing',
    check: false,
    offers: { draw: null, takeback: null, rematch: null },
    rematch: null,
    result: null,
  };
  const states = {
    makruk: {
      ...base,
      id: 'lay1',
      variant: 'makruk',
      players: players(false),
      you: 'first',
      initialFen: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1',
      fen: 'rnsmksnr/8/ppp1pppp/3p4/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2',
      turn: 'first',
      ply: 2,
      moves: [
        { uci: 'e3e4', san: 'e4' },
        { uci: 'd6d5', san: 'd5' },
      ],
      legal: ['e4d5', 'e4e5', 'a3a4'],
      counters: { makruk: null, canStartCount: false, canStopCount: false, pliesBeforeMoveLimit: 398 },
      clock: { first: { mainMs: 0, periods: 1, periodMs: 8000 }, second: { mainMs: 241000, periods: 3, periodMs: 30000 }, running: 'first' },
    },
    count: {
      ...base,
      id: 'lay2',
      variant: 'makruk',
      players: players(),
      you: 'second',
      initialFen: '4k3/8/2n5/8/8/8/3SN3/R3K3 b - - 0 40',
      fen: '4k3/8/2n5/8/8/8/3SN3/R3K3 b - - 0 40',
      turn: 'second',
      ply: 0,
      moves: [],
      legal: ['c6d4', 'c6b4', 'e8d8', 'e8f8'],
      counters: { makruk: { kind: 'board', side: 'second', count: 12, limit: 64, movesLeft: 52 }, canStartCount: false, canStopCount: true, pliesBeforeMoveLimit: 320 },
      clock: { first: { mainMs: 120500, periods: 3, periodMs: 30000 }, second: { mainMs: 0, periods: 3, periodMs: 21000 }, running: 'second' },
    },
    checkers: {
      ...base,
      id: 'lay3',
      variant: 'checkers',
      mode: 'random',
      players: players(),
      you: 'first',
      initialFen: 'B:W18,22,26,30:B1,11,14',
      fen: 'B:W18,22,26,30:B1,11,14',
      turn: 'first',
      ply: 0,
      moves: [],
      legal: ['14x23'],
      counters: { makruk: null, canStartCount: false, canStopCount: false, pliesBeforeMoveLimit: 14 },
      clock: { first: { mainMs: 61000, periods: 3, periodMs: 30000 }, second: { mainMs: 75000, periods: 3, periodMs: 30000 }, running: 'first' },
    },
    xiangqi: {
      ...base,
      id: 'lay4',
      variant: 'xiangqi',
      status: 'finished',
      players: players(),
      you: null,
      initialFen: 'R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1',
      fen: 'R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1',
      turn: 'second',
      ply: 0,
      moves: [],
      legal: [],
      check: true,
      counters: null,
      clock: { first: { mainMs: 100000, periods: 3, periodMs: 30000 }, second: { mainMs: 90000, periods: 3, periodMs: 30000 }, running: null },
      result: { result: '1-0', winner: 'first', reason: 'checkmate' },
    },
  };

  /** A context whose game sockets answer with `states[id]`, and a session. */
  async function answering(ctx) {
    await ctx.routeWebSocket(/\/ws\/game\//, (ws) => {
      const id = new URL(ws.url()).pathname.split('/').pop();
      const state = Object.values(states).find((s) => s.id === id);
      if (state) ws.send(JSON.stringify({ t: 'full', d: state, v: 5 }));
      ws.onMessage((m) => {
        if (JSON.parse(String(m)).t === 'ping') ws.send(JSON.stringify({ t: 'pong', d: {} }));
      });
    });
    await (await pageWithSession(ctx, uniqueNick('lay'), '/')).close();
  }

  async function open(ctx, state) {
    const page = await ctx.newPage();
    await page.goto(`/game/${state.id}`);
    await page.getByTestId('board').waitFor();
    return page;
  }

  for (const [name, size] of [
    ['phone', phone],
    ['desktop', {}],
  ]) {
    it(`${name}: clocks, counters, notices and result in words`, () =>
      withContext(size, async (ctx) => {
        const problems = [];
        await answering(ctx);
        for (const [key, state] of Object.entries(states)) {
          const page = await open(ctx, state);
          const over = await horizontalOverflow(page);
          if (over > 0) problems.push(`${key}: ${over}px too wide: ${(await overflowingElements(page)).join(', ')}`);
          await shot(page, `layout-${name}-${key}`);
          if (key === 'makruk') {
            const clock = page.getByTestId('clock-first');
            assert.match((await clock.textContent()) ?? '', /^0:0\d\.\d/, 'low time shows tenths');
            assert.match((await clock.getAttribute('class')) ?? '', /\blow\b/);
            assert.match((await page.getByTestId('clock-second').textContent()) ?? '', /^4:01\s*3 periods/);
            assert.match((await page.getByTestId('opponent-gone').textContent()) ?? '', /Mei is disconnected/);
            assert.equal(await page.getByTestId('last-move').textContent(), 'Black Bia, d6 to d5');
            assert.match((await page.getByTestId('sq-e4').getAttribute('aria-label')) ?? '', /^e4, White Bia/);
            assert.ok(await page.getByTestId('download').isVisible(), 'record download');
          }
          if (key === 'count') {
            assert.match((await page.getByTestId('counters').textContent()) ?? '', /Board count: 12 of 64.*52 moves left/);
            assert.equal(await page.getByTestId('stop-count').count(), 1);
            assert.equal(await page.getByTestId('start-count').count(), 0);
            assert.match((await page.getByTestId('clock-second').textContent()) ?? '', /Byo-yomi · 3 periods/);
          }
          if (key === 'checkers') {
            assert.match((await page.getByTestId('counters').textContent()) ?? '', /move limit after 14 more moves/);
            assert.match((await page.getByTestId('sq-14').getAttribute('aria-label')) ?? '', /must capture/);
          }
          if (key === 'xiangqi') {
            assert.match((await page.getByTestId('result').textContent()) ?? '', /Red wins — by checkmate/);
            assert.equal(await page.getByTestId('resign').count(), 0, 'spectators get no controls');
            assert.equal(await page.getByTestId('typed-move').count(), 0);
          }
          await page.close();
        }
        assert.deepEqual(problems, []);
      }));
  }
});

describe('keyboard', () => {
  /** Tabs through the page; returns what got focus (in order) and what never did. */
  async function tabThrough(page, max = 80) {
    const reached = [];
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const f = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const id = el.getAttribute('data-testid') ?? `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim().slice(0, 20)}`;
        if (!el.dataset.seen) el.dataset.seen = '1';
        const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
        return { id, ring };
      });
      if (f) reached.push(f);
    }
    const missed = await page.evaluate(() =>
      [...document.querySelectorAll('a[href], button:not([disabled]), input, select, summary')]
        .filter((el) => el.getBoundingClientRect().width > 0 && !el.dataset.seen)
        .filter((el) => !(el.classList.contains('sq') && el.getAttribute('tabindex') === '-1')) // board: one stop, then arrows
        // A radio group is one stop (arrow keys choose); a closed menu opens from its summary.
        .filter((el) => !(el.type === 'radio' && document.querySelector(`input[type=radio][name="${el.name}"][data-seen]`)))
        .filter((el) => !el.closest('details:not([open])') || el.tagName === 'SUMMARY')
        .map((el) => el.getAttribute('data-testid') ?? `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim().slice(0, 20)}`),
    );
    return { reached, missed };
  }

  it('reaches every control of the home page with a visible focus ring', () =>
    withContext({}, async (ctx) => {
      const page = await pageWithSession(ctx, uniqueNick('kbd'), '/');
      await page.locator('#pick-title').waitFor();
      const { reached, missed } = await tabThrough(page);
      assert.deepEqual(missed, [], 'controls Tab never reaches');
      assert.deepEqual(reached.filter((r) => !r.ring).map((r) => r.id), [], 'focused without a visible ring');
      assert.ok(reached.some((r) => r.id === 'play-ai'));
    }));

  it('reaches every control of a rules page', () =>
    withContext({}, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/rules/checkers');
      await page.locator('figure.diagram svg').first().waitFor();
      const { reached, missed } = await tabThrough(page, 60);
      assert.deepEqual(missed, []);
      assert.deepEqual(reached.filter((r) => !r.ring).map((r) => r.id), []);
    }));
});
