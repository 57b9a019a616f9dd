// End-to-end tests of what the server serves today: the static client, sessions and
// nicknames, languages, rules pages, settings, phone layout, first paint.
// Run by scripts/e2e.sh (or `E2E_BASE_URL=http://127.0.0.1:PORT npm run e2e` in web/).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  chooseNickname,
  horizontalOverflow,
  launch,
  newContext,
  overflowingElements,
  pageWithSession,
  shot,
  shotElement,
  uniqueNick,
  watchErrors,
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

describe('nickname and session', () => {
  it('first visit shows the nickname prompt', () =>
    withContext({}, async (ctx) => {
      const page = await ctx.newPage();
      const errors = watchErrors(page);
      await page.goto('/');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      assert.equal(await dialog.getByRole('heading').textContent(), 'Choose a nickname');
      // The input has the focus, ready to type.
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'nickname-input');
      await shot(page, 'nickname-first-visit');
      // 401 from GET /api/me is expected on a first visit; anything else is not.
      assert.deepEqual(errors.filter((e) => !/401/.test(e)), []);
    }));

  it('a chosen nickname sticks across a reload (session cookie)', () =>
    withContext({}, async (ctx) => {
      const nick = uniqueNick('Somchai');
      const page = await pageWithSession(ctx, nick);
      const cookies = await ctx.cookies();
      assert.ok(cookies.length > 0, 'the server set a session cookie');
      assert.ok(cookies.some((c) => c.httpOnly), `an HTTP-only session cookie: ${JSON.stringify(cookies.map((c) => c.name))}`);
      await page.reload();
      await page.getByTestId('nickname').filter({ hasText: nick }).waitFor();
      assert.equal(await page.getByRole('dialog').count(), 0, 'no prompt after the reload');
      // The header button reopens the prompt, filled with the current name.
      await page.getByTestId('nickname').click();
      assert.equal(await page.getByTestId('nickname-input').inputValue(), nick);
      await shot(page, 'nickname-after-reload-change-dialog');
    }));

  it('a nickname in another script is accepted (Thai)', () =>
    withContext({}, async (ctx) => {
      const page = await pageWithSession(ctx, 'สมชาย' + (process.pid % 100));
      await shot(page, 'nickname-thai');
    }));

  it('an invalid nickname shows the client check, then the server’s own error', () =>
    withContext({}, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/');
      const error = page.locator('#nick-error');
      // 1. Refused by the client's check (one character): its own words.
      await page.getByTestId('nickname-input').fill('x');
      await page.getByTestId('nickname-save').click();
      await page.waitForFunction(() => (document.querySelector('#nick-error')?.textContent ?? '').length > 0);
      const clientWords = await error.textContent();
      await shot(page, 'nickname-invalid-client');
      // 2. Passes the client's check, refused by the server (a reserved word).
      const answer = await ctx.request.post('/api/session', { data: { nickname: 'admin' } });
      assert.equal(answer.status(), 422, 'the server refuses "admin"');
      const body = await answer.json();
      const serverWords = body.message ?? body.error;
      assert.ok(serverWords, `the server explains: ${JSON.stringify(body)}`);
      await page.getByTestId('nickname-input').fill('admin');
      await page.getByTestId('nickname-save').click();
      await page.waitForFunction((before) => {
        const t = document.querySelector('#nick-error')?.textContent ?? '';
        return t.length > 0 && t !== before;
      }, clientWords);
      const shown = await error.textContent();
      await shot(page, 'nickname-invalid-server');
      assert.ok(
        shown.includes(serverWords),
        `the dialog shows the server's words ${JSON.stringify(serverWords)} (server body ${JSON.stringify(body)}), but shows ${JSON.stringify(shown)}`,
      );
      assert.equal(await page.getByRole('dialog').count(), 1, 'still asking');
      assert.equal((await ctx.cookies()).length, 0, 'no session was created');
    }));
});

describe('languages', () => {
  const expected = {
    en: { heading: 'Choose a game', html: 'en' },
    th: { heading: 'เลือกเกม', html: 'th' },
    hi: { heading: 'खेल चुनें', html: 'hi' },
    zh: { heading: '选择棋类', html: 'zh-Hans' },
  };
  const heading = (page) => page.locator('#pick-title').textContent();

  it('switches English → Thai, Hindi, Chinese and back, remembered across a reload', () =>
    withContext({}, async (ctx) => {
      const page = await pageWithSession(ctx);
      const errors = watchErrors(page);
      assert.equal(await heading(page), expected.en.heading);
      for (const lang of ['th', 'hi', 'zh']) {
        await page.getByTestId('language').selectOption(lang);
        await page.locator('#pick-title').filter({ hasText: expected[lang].heading }).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.lang), expected[lang].html);
        await shot(page, `lang-${lang}-home`);
      }
      // Remembered: still Chinese after a reload.
      await page.reload();
      await page.locator('#pick-title').filter({ hasText: expected.zh.heading }).waitFor();
      assert.equal(await page.getByTestId('language').inputValue(), 'zh');
      // And back to English, remembered too.
      await page.getByTestId('language').selectOption('en');
      await page.locator('#pick-title').filter({ hasText: expected.en.heading }).waitFor();
      await page.reload();
      await page.locator('#pick-title').filter({ hasText: expected.en.heading }).waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem('ttakji.lang')), 'en');
      assert.deepEqual(errors, []);
    }));

  it('picks the browser’s language on a first visit (th-TH)', () =>
    withContext({ locale: 'th-TH' }, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/');
      await page.locator('#pick-title').filter({ hasText: expected.th.heading }).waitFor();
      await page.getByRole('dialog').waitFor();
      await shot(page, 'lang-th-first-visit');
    }));
});

describe('rules pages', () => {
  for (const variant of ['makruk', 'xiangqi', 'checkers']) {
    it(`/rules/${variant} renders its diagrams`, () =>
      withContext({ deviceScaleFactor: 2 }, async (ctx) => {
        const page = await ctx.newPage();
        const errors = watchErrors(page);
        await page.goto(`/rules/${variant}`);
        const article = page.getByTestId(`rules-${variant}`);
        await article.locator('figure.diagram svg').first().waitFor();
        // No nickname prompt on a rules page.
        assert.equal(await page.getByRole('dialog').count(), 0);
        const figures = await article.locator('figure.diagram').evaluateAll((els) =>
          els.map((f) => {
            const svg = f.querySelector('svg');
            const box = svg?.getBoundingClientRect();
            return {
              pieces: svg?.querySelectorAll('.layer-pieces > *').length ?? 0,
              width: box?.width ?? 0,
              height: box?.height ?? 0,
              caption: f.querySelector('figcaption')?.textContent ?? '',
            };
          }),
        );
        assert.ok(figures.length >= 3, `several diagrams (found ${figures.length})`);
        for (const [i, f] of figures.entries()) {
          assert.ok(f.width > 100 && f.height > 100, `diagram ${i} is drawn at a visible size (${f.width}×${f.height})`);
          assert.ok(f.caption.length > 0, `diagram ${i} has a caption`);
        }
        assert.ok(figures.some((f) => f.pieces > 0), 'diagrams show pieces');
        console.log(`# ${variant}: ${figures.length} diagrams, ${figures.reduce((n, f) => n + f.pieces, 0)} pieces drawn`);
        await shot(page, `rules-${variant}`, { scale: 'css' });
        // Each diagram on its own, at twice the pixels, to look at the artwork.
        const diagrams = article.locator('figure.diagram');
        for (let i = 0; i < Math.min(figures.length, 3); i++) {
          await shotElement(diagrams.nth(i), `rules-${variant}-diagram${i + 1}`);
        }
        // The Thai text loads on demand and replaces the English.
        await page.getByTestId('language').selectOption('th');
        await page.locator(`[data-testid="rules-${variant}"][lang="th"]`).waitFor();
        await shot(page, `rules-${variant}-th`, { fullPage: false, scale: 'css' });
        assert.deepEqual(errors, []);
      }));
  }
});

describe('settings', () => {
  it('the Xiangqi piece style (characters / pictures) is remembered across a reload', () =>
    withContext({}, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/rules/xiangqi');
      const art = page.locator('[data-testid="rules-xiangqi"] figure.diagram svg.art').first();
      await art.waitFor();
      const glyphs = () => art.locator('.layer-pieces .glyph').count();
      assert.match((await art.getAttribute('class')) ?? '', /\bcharacters\b/, 'characters by default');
      assert.ok((await glyphs()) > 0, 'characters are drawn as text');
      await shot(page, 'xiangqi-style-characters', { fullPage: false });

      await page.locator('details.settings > summary').click();
      await page.getByTestId('style-pictures').check();
      await page.waitForFunction(() => document.querySelector('figure.diagram svg.art')?.classList.contains('pictures'));
      await page.locator('details.settings > summary').click(); // close the menu for the picture
      assert.equal(await glyphs(), 0, 'no characters in picture style');
      await shot(page, 'xiangqi-style-pictures', { fullPage: false });

      await page.reload();
      await art.waitFor();
      assert.match((await art.getAttribute('class')) ?? '', /\bpictures\b/, 'still pictures after the reload');
      assert.equal(await glyphs(), 0);
      const prefs = await page.evaluate(() => JSON.parse(localStorage.getItem('ttakji.prefs') ?? '{}'));
      assert.equal(prefs.pieceStyle, 'pictures');
      // The home page's preview follows the setting too.
      await page.goto('/?variant=xiangqi');
      await page.locator('.pick-row svg.art.pictures').waitFor();
      await page.getByRole('dialog').waitFor();
      await chooseNickname(page, uniqueNick('style'));
      await shot(page, 'xiangqi-style-pictures-home', { fullPage: false });
    }));
});

describe('phone', () => {
  const phone = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

  it('a 360×740 phone shows the home page without horizontal scrolling', () =>
    withContext(phone, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/');
      await page.getByRole('dialog').waitFor();
      await shot(page, 'phone-nickname', { fullPage: false });
      await chooseNickname(page, uniqueNick('phone'));
      const problems = [];
      for (const variant of ['makruk', 'xiangqi', 'checkers']) {
        await page.getByTestId(`variant-${variant}`).click();
        await page.locator(`[data-testid="variant-${variant}"][aria-pressed="true"]`).waitFor();
        const over = await horizontalOverflow(page);
        if (over > 0) problems.push(`${variant}: ${over}px too wide: ${(await overflowingElements(page)).join(', ')}`);
        const board = await page.locator('.pick-row svg').boundingBox();
        assert.ok(board && board.x >= 0 && board.x + board.width <= 360, `${variant} preview fits: ${JSON.stringify(board)}`);
        await shot(page, `phone-home-${variant}`);
      }
      // The first screen: the game choice is visible without scrolling.
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'phone-home-first-screen', { fullPage: false });
      assert.deepEqual(problems, []);
    }));

  it('a 360×740 phone shows a rules page and the Thai home page without horizontal scrolling', () =>
    withContext(phone, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/rules/makruk');
      await page.locator('figure.diagram svg').first().waitFor();
      const over = await horizontalOverflow(page);
      const where = over > 0 ? await overflowingElements(page) : [];
      await shot(page, 'phone-rules-makruk', { fullPage: false });
      await page.getByTestId('language').selectOption('th');
      await page.locator('[data-testid="rules-makruk"][lang="th"]').waitFor(); // stored once loaded
      await page.goto('/');
      await page.locator('#pick-title').filter({ hasText: 'เลือกเกม' }).waitFor();
      await chooseNickname(page, uniqueNick('phoneth'));
      const overTh = await horizontalOverflow(page);
      const whereTh = overTh > 0 ? await overflowingElements(page) : [];
      await shot(page, 'phone-home-th');
      assert.equal(over, 0, `rules page overflows: ${where.join(', ')}`);
      assert.equal(overTh, 0, `Thai home page overflows: ${whereTh.join(', ')}`);
    }));
});

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

describe('performance', () => {
  /** One cold load of `/` in a fresh context (empty cache): paint and load timings. */
  async function coldLoad() {
    return withContext({}, async (ctx) => {
      const page = await ctx.newPage();
      await page.goto('/', { waitUntil: 'load' });
      await page.locator('#pick-title').waitFor();
      return page.evaluate(
        () =>
          new Promise((resolve) => {
            // Paint entries may land a frame after `load`.
            requestAnimationFrame(() =>
              setTimeout(() => {
                const paint = Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
                const nav = performance.getEntriesByType('navigation')[0];
                const res = performance.getEntriesByType('resource');
                resolve({
                  fp: paint['first-paint'],
                  fcp: paint['first-contentful-paint'],
                  dcl: nav?.domContentLoadedEventEnd,
                  load: nav?.loadEventEnd,
                  bytes: res.reduce((n, r) => n + (r.transferSize || 0), nav?.transferSize || 0),
                });
              }, 50),
            );
          }),
      );
    });
  }

  it('first paint on localhost is under 1 s (median of 3 cold loads)', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await coldLoad());
    const ms = (x) => (x === undefined ? 'n/a' : `${x.toFixed(0)} ms`);
    for (const [i, m] of runs.entries())
      console.log(`# load ${i + 1}: first paint ${ms(m.fp)}, first contentful paint ${ms(m.fcp)}, DOMContentLoaded ${ms(m.dcl)}, load ${ms(m.load)}, ${m.bytes} bytes over the wire`);
    const median = (k) => runs.map((r) => r[k]).sort((a, b) => a - b)[1];
    console.log(`# first paint (median of 3 cold loads): ${ms(median('fp'))}; first contentful paint: ${ms(median('fcp'))}`);
    assert.ok(runs.every((r) => r.fcp !== undefined), 'the browser reported a first contentful paint');
    assert.ok(median('fcp') < 1000, `first contentful paint ${median('fcp')} ms < 1000 ms`);
  });
});
