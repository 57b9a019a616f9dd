// End-to-end game tests, written against docs/protocol.md and the client's data-testids.
// The loss-on-time test needs a server with a short clock: scripts/e2e.sh starts one and sets
// E2E_SHORT_CLOCK=1.
//
// The tests play through the page as a person would (clicks on `sq-<square>` buttons, the
// typed-move box, the controls) and read the game state from `GET /api/games/{id}` (same
// cookies as the page) only to choose their moves: the client has no rules engine, the
// server's `legal` list does.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launch, newContext, pageWithSession, shot, uniqueNick, until, watchErrors } from './lib.mjs';


/** Plies a test may play before it gives up looking for what it wants to see. */
const MAX_PLIES = Number(process.env.E2E_MAX_PLIES ?? 200);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// ---------------------------------------------------------------------------------------
// Helpers

/** The game id of a `/game/{id}` page. */
const gameIdOf = (page) => new URL(page.url()).pathname.match(/^\/game\/([^/]+)/)?.[1];

/** The game state as the server has it (protocol "Game state"). */
async function state(page, id = gameIdOf(page)) {
  const res = await page.request.get(`/api/games/${encodeURIComponent(id)}`);
  assert.equal(res.status(), 200, `GET /api/games/${id}`);
  return res.json();
}

/** The squares a move visits, in click order: `e3e4` → [e3, e4]; `e5d6m` → [e5, d6]; `9x18x27` → [9, 18, 27]. */
export function moveSquares(variant, uci) {
  if (variant === 'checkers') return uci.split(/[-x]/);
  const m = uci.match(/^([a-i])(\d{1,2})([a-i])(\d{1,2})m?$/);
  assert.ok(m, `engine move ${uci}`);
  return [`${m[1]}${m[2]}`, `${m[3]}${m[4]}`];
}

/** Plays `uci` by clicking its squares on the board (click-click; multi-jumps landing by landing). */
async function clickMove(page, variant, uci) {
  for (const sq of moveSquares(variant, uci)) await page.getByTestId(`sq-${sq}`).click();
}

/** Waits until the server has stored `ply` plies or the game is over; returns the state. */
async function waitPly(page, ply, ms = 20_000) {
  return until(
    async () => {
      const g = await state(page);
      return g.ply >= ply || g.result ? g : null;
    },
    ms,
    `ply ${ply}`,
  );
}

/** Waits for our turn (the AI has answered) or the end of the game. */
async function waitOurTurn(page, ms = 30_000) {
  return until(
    async () => {
      const g = await state(page);
      return g.result || g.turn === g.you ? g : null;
    },
    ms,
    'our turn',
  );
}

/** The number of moves the page's move list shows. */
const shownMoves = (page) => page.getByTestId('moves').locator('.mv').count();

/** What the board says, square by square (the labels screen readers read: piece, colour, last move…). */
const boardLabels = (page) =>
  page
    .getByTestId('board')
    .locator('[data-testid^="sq-"]')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}: ${e.getAttribute('aria-label')}`));

/** Waits for the page to open a game; fails with the page's error message when the server refused. */
async function waitForGame(page) {
  const refused = page
    .locator('.home p.error[role="alert"]')
    .waitFor()
    .then(async () => {
      throw new Error(`the home page says: ${await page.locator('.home p.error').textContent()}`);
    });
  refused.catch(() => {});
  await Promise.race([page.waitForURL(/\/game\//), refused]);
}

/** Starts an AI game from the home page; returns the page on /game/{id}. */
async function startAiGame(ctx, variant, { level = 'easy', side = 'first' } = {}) {
  const page = await pageWithSession(ctx, uniqueNick(variant));
  await page.getByTestId(`variant-${variant}`).click();
  await page.getByTestId(`level-${level}`).check();
  await page.getByTestId(`side-${side}`).check();
  await page.getByTestId('play-ai').click();
  await waitForGame(page);
  await page.getByTestId('board').waitFor();
  await page.locator('[data-testid="conn"].open').waitFor();
  const g = await state(page);
  assert.equal(g.variant, variant);
  assert.equal(g.mode, 'ai');
  assert.equal(g.you, side);
  assert.equal(g.clock, null, 'AI games have no clock');
  return page;
}

/** Picks a move from `legal` with `prefer` (first match wins), else the first legal move. */
function pick(legal, ...prefer) {
  for (const p of prefer) {
    const m = legal.find(p);
    if (m) return m;
  }
  return legal[Math.floor(Math.random() * legal.length)];
}

// ---------------------------------------------------------------------------------------

describe('games against the AI', () => {
  it('makruk: plays until a Bia is promoted (clicks), then resigns with confirmation', async () => {
    const ctx = await newContext(browser);
    try {
      const page = await startAiGame(ctx, 'makruk');
      const errors = watchErrors(page);
      await shot(page, 'game-makruk-start');
      let promoted = false;
      let g = await state(page);
      while (!g.result && g.ply < MAX_PLIES && !promoted) {
        // White's Bia promote on rank 6: prefer a promotion, then a Bia advance, then anything.
        const uci = pick(
          g.legal,
          (m) => m.endsWith('m'),
          (m) => /^([a-h])([3-5])\1([4-6])$/.test(m),
        );
        await clickMove(page, 'makruk', uci);
        g = await waitPly(page, g.ply + 1);
        if (uci.endsWith('m')) promoted = true;
        if (!g.result) g = await waitOurTurn(page);
      }
      await shot(page, 'game-makruk-promotion');
      assert.ok(promoted || g.result, `a promotion within ${MAX_PLIES} plies`);
      // The move list shows what the server stored.
      assert.equal(await shownMoves(page), g.moves.length);
      if (!g.result) {
        await page.getByTestId('resign').click();
        await page.getByTestId('resign-yes').click();
        await page.getByTestId('result').waitFor();
        g = await state(page);
        assert.equal(g.result.reason, 'resignation');
        assert.equal(g.result.winner, 'second');
      }
      await shot(page, 'game-makruk-result');
      assert.deepEqual(errors, []);
    } finally {
      await ctx.close();
    }
  });

  it('xiangqi: plays until a king is in check (highlighted), with typed moves', async () => {
    const ctx = await newContext(browser);
    try {
      const page = await startAiGame(ctx, 'xiangqi');
      let g = await state(page);
      let sawCheck = false;
      while (!g.result && g.ply < MAX_PLIES && !sawCheck) {
        // Prefer moves onto the black palace's file or the e-file, which give checks often.
        const uci = pick(g.legal, (m) => /^[a-i]\d+e(8|9|10)$/.test(m), (m) => /^[a-i]\d+e\d+$/.test(m));
        // Every other move typed instead of clicked.
        if (g.ply % 4 === 0) {
          await page.getByTestId('typed-move').fill(uci);
          await page.getByTestId('typed-move').press('Enter');
        } else {
          await clickMove(page, 'xiangqi', uci);
        }
        g = await waitPly(page, g.ply + 1);
        if (g.check) sawCheck = true;
        if (!g.result) {
          g = await waitOurTurn(page);
          if (g.check) sawCheck = true;
        }
      }
      assert.ok(sawCheck, `a check within ${MAX_PLIES} plies`);
      // The king in check is marked on the board (the SVG's check ring, and the square's label).
      await page.locator('[data-testid="board"] svg .check').waitFor();
      await shot(page, 'game-xiangqi-check');
    } finally {
      await ctx.close();
    }
  });

  // A fixed start position (POST /api/games with a FEN) makes the multi-jump certain: Black's man
  // on 14 must take twice, 14x23x30, and is crowned on landing; White's men (29, 32) cannot
  // reach 18 or 26 in one move, so the board checked below cannot change under the test.
  it('checkers: a multi-jump entered square by square, with the path drawn', async () => {
    const ctx = await newContext(browser);
    try {
      const page = await pageWithSession(ctx, uniqueNick('checkers'));
      const res = await page.request.post('/api/games', {
        data: { variant: 'checkers', mode: 'ai', level: 'easy', side: 'first', fen: 'B:W18,26,29,32:B1,2,3,14' },
      });
      assert.equal(res.status(), 201, 'POST /api/games with a start FEN');
      const { id } = await res.json();
      await page.goto(`/game/${id}`);
      await page.getByTestId('board').waitFor();
      await page.locator('[data-testid="conn"].open').waitFor();
      const g = await state(page, id);
      assert.equal(g.you, 'first');
      assert.deepEqual(g.legal, ['14x23x30'], 'the capture is forced');
      // Pieces that must capture carry a dashed ring.
      await page.locator('[data-testid="board"] svg .must').first().waitFor();
      const squares = moveSquares('checkers', '14x23x30');
      for (const [i, sq] of squares.entries()) {
        await page.getByTestId(`sq-${sq}`).click();
        if (i > 0 && i < squares.length - 1) {
          // The path so far is drawn, and the move is not sent yet.
          await page.locator('[data-testid="board"] svg .path').waitFor();
          await shot(page, `game-checkers-multijump-${i}`);
          assert.equal((await state(page, id)).ply, 0);
        }
      }
      const after = await waitPly(page, 1);
      assert.equal(after.moves[0]?.uci, '14x23x30', 'the server stored the whole jump');
      // Both jumped men are gone from the board the page shows, and the man was crowned.
      await until(async () => (await shownMoves(page)) >= 1, 10_000, 'the move in the list');
      const labels = (await boardLabels(page)).join('\n');
      assert.doesNotMatch(labels, /sq-18: .*(man|king)/i, 'the man on 18 was taken');
      assert.doesNotMatch(labels, /sq-26: .*(man|king)/i, 'the man on 26 was taken');
      await shot(page, 'game-checkers-after-multijump');
    } finally {
      await ctx.close();
    }
  });
});

describe('friend game', () => {
  it('two browser contexts: invitation link, moves on both boards, presence', async () => {
    const alice = await newContext(browser);
    const bob = await newContext(browser);
    try {
      const a = await pageWithSession(alice, uniqueNick('alice'));
      await a.getByTestId('variant-makruk').click();
      await a.getByTestId('play-friend').click();
      await waitForGame(a);
      const url = await a.getByTestId('invite-url').inputValue();
      assert.match(url, /\/invite\//);
      await shot(a, 'friend-waiting');

      const b = await bob.newPage();
      await b.goto(url);
      await b.getByTestId('nickname-input').fill(uniqueNick('bob'));
      await b.getByTestId('nickname-save').click();
      await b.waitForURL(/\/game\//);
      assert.equal(gameIdOf(b), gameIdOf(a), 'both on the same game');
      await a.getByTestId('invite-panel').waitFor({ state: 'detached' });

      // Who moves first is decided by the server: find the side of each page.
      const ga = await state(a);
      const [first, second] = ga.you === 'first' ? [a, b] : [b, a];
      assert.ok(ga.clock, 'friend games have a clock');
      await clickMove(first, 'makruk', 'e3e4');
      for (const p of [a, b]) await p.getByTestId('moves').filter({ hasText: /e4/ }).waitFor();
      const g1 = await state(second);
      await clickMove(second, 'makruk', g1.legal.find((m) => m === 'd6d5') ?? g1.legal[0]);
      for (const p of [a, b]) await until(async () => (await shownMoves(p)) === 2, 10_000, 'two moves shown');
      await shot(a, 'friend-alice');
      await shot(b, 'friend-bob');

      // Bob leaves: Alice sees that her opponent is gone, then back.
      const bobUrl = b.url();
      await b.close();
      await a.getByTestId('opponent-gone').waitFor();
      await shot(a, 'friend-opponent-gone');
      const b2 = await bob.newPage();
      await b2.goto(bobUrl);
      await b2.getByTestId('board').waitFor();
      await a.getByTestId('opponent-gone').waitFor({ state: 'detached' });
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

describe('reconnection', () => {
  it('a reload in mid-game comes back to the same position without a click', async () => {
    const ctx = await newContext(browser);
    try {
      const page = await startAiGame(ctx, 'makruk');
      let g = await state(page);
      for (let i = 0; i < 3 && !g.result; i++) {
        await clickMove(page, 'makruk', g.legal[0]);
        g = await waitOurTurn(page);
      }
      // The server has the AI's reply; wait until the page shows it too before reading the board.
      const moves = g.moves.length;
      await until(async () => (await shownMoves(page)) === moves, 10_000, 'the move list before the reload');
      const before = await boardLabels(page);
      await page.reload();
      await page.locator('[data-testid="conn"].open').waitFor();
      await until(async () => (await shownMoves(page)) === moves, 10_000, 'the move list back');
      assert.deepEqual(await boardLabels(page), before, 'the same board');
      await shot(page, 'reload-mid-game');
      // And a network drop: offline, then online again, the socket reconnects by itself.
      await ctx.setOffline(true);
      await page.locator('[data-testid="conn"]:not(.open)').waitFor({ timeout: 40_000 });
      await shot(page, 'reload-offline');
      await ctx.setOffline(false);
      await page.locator('[data-testid="conn"].open').waitFor({ timeout: 20_000 });
    } finally {
      await ctx.close();
    }
  });
});

const CLOCK_SKIP = process.env.E2E_SHORT_CLOCK ? false : 'a loss on time needs a server started with a short clock (scripts/e2e.sh sets E2E_SHORT_CLOCK=1)';

describe('clock', () => {
  it('a game lost on time shows the result in words', { skip: CLOCK_SKIP }, async () => {
    const alice = await newContext(browser);
    const bob = await newContext(browser);
    try {
      const a = await pageWithSession(alice, uniqueNick('slow'));
      await a.getByTestId('variant-checkers').click();
      await a.getByTestId('play-friend').click();
      await waitForGame(a);
      const url = await a.getByTestId('invite-url').inputValue();
      const b = await bob.newPage();
      await b.goto(url);
      await b.getByTestId('nickname-input').fill(uniqueNick('fast'));
      await b.getByTestId('nickname-save').click();
      await b.waitForURL(/\/game\//);
      // Nobody moves: the side to move runs out of time (main time, then every byo-yomi period).
      const g0 = await state(a);
      await a.getByTestId(`clock-${g0.turn}`).waitFor();
      await shot(a, 'clock-running');
      await a.getByTestId('result').waitFor({ timeout: 120_000 });
      const g = await state(a);
      assert.equal(g.result.reason, 'timeout');
      assert.notEqual(g.result.winner, g0.turn);
      for (const p of [a, b]) await p.getByTestId('result').filter({ hasText: /time/i }).waitFor();
      await shot(a, 'clock-lost-on-time');
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
