// End-to-end test of ranked play: two browsers sign in through the development OpenID
// issuer, play a ranked friend game (one resigns), see the rating change, the profile and the
// leaderboard, then one deletes the account; two others meet through the ranked queue.
//
// The development issuer signs in anybody as anybody, so the shared e2e server never has it:
// this file starts its own `ttakji serve --dev-oidc-issuer` on a free loopback port
// (E2E_TTAKJI_BIN, default target/debug/ttakji; the client from web/dist), and stops it after.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chooseNickname, launch, newContext, shot, uniqueNick, until, watchErrors } from './lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.E2E_TTAKJI_BIN ?? join(root, 'target', 'debug', 'ttakji');

let browser;
let server;
let base;
let dir;

/** Starts the server and resolves with its address from its first line of output. */
function startServer() {
  dir = mkdtempSync(join(tmpdir(), 'ttakji-ranked-'));
  server = spawn(
    BIN,
    [
      'serve',
      '--bind',
      '127.0.0.1:0',
      '--database-url',
      `sqlite://${join(dir, 'e2e.db')}`,
      '--static-dir',
      join(root, 'web', 'dist'),
      '--dev-oidc-issuer',
      '--log',
      'warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  server.stderr.on('data', (d) => (log += d));
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/running at (http:\/\/[^/\s]+)\//);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`ttakji serve exited (${code}): ${log}`)));
    setTimeout(() => reject(new Error(`ttakji serve did not start: ${log}`)), 20_000);
  }).then((url) => {
    // The warning that the dev issuer is on must be in the log.
    assert.match(log, /dev-oidc-issuer is ON/);
    return url;
  });
}

before(async () => {
  base = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh browser with a guest nickname, signed in as `sub` through the header form. */
async function signedInPage(sub) {
  const ctx = await newContext(browser, { baseURL: base });
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto('/');
  const nick = uniqueNick('rk');
  await chooseNickname(page, nick);
  await page.getByTestId('dev-sub').fill(sub);
  await page.getByTestId('dev-sign-in').click();
  await page.getByTestId('my-profile').waitFor();
  return { ctx, page, nick, errors };
}

describe('ranked play', () => {
  it('two signed-in players play a ranked game, see the rating change, profile and leaderboard', async () => {
    const a = await signedInPage(`e2e-a-${process.pid}`);
    const b = await signedInPage(`e2e-b-${process.pid}`);

    // A offers a ranked friend game.
    await a.page.getByTestId('rated').check();
    await a.page.getByTestId('play-friend').click();
    const url = await a.page.getByTestId('invite-url').inputValue();
    await b.page.goto(new URL(url).pathname);
    await b.page.waitForURL(/\/game\//);
    await a.page.getByTestId('resign').waitFor();
    // Ratings next to the names: both start at 1200.
    for (const p of [a.page, b.page]) {
      await until(async () => (await p.getByTestId('rating-first').textContent())?.includes('1200'), 10_000, 'rating shown');
      assert.match((await p.getByTestId('rating-second').textContent()) ?? '', /1200/);
    }
    await shot(a.page, 'ranked-game');

    // B resigns: A gains 20, B loses 20, and both pages say so.
    await b.page.getByTestId('resign').click();
    await b.page.getByTestId('resign-yes').click();
    await a.page.getByTestId('rating-changes').waitFor();
    const aText = await a.page.getByTestId('rating-changes').textContent();
    assert.match(aText, /1200 → 1220 \(\+20\)/);
    assert.match(aText, /1200 → 1180 \(-20\)/);
    await b.page.getByTestId('rating-changes').waitFor();
    await shot(b.page, 'ranked-result');

    // A's profile: the Makruk rating and its history with a link back to the game.
    await a.page.getByTestId('my-profile').click();
    await a.page.getByTestId('profile').waitFor();
    assert.equal(await a.page.getByTestId('profile-name').textContent(), a.nick);
    assert.match((await a.page.getByTestId('rating-makruk').textContent()) ?? '', /1220/);
    assert.match((await a.page.getByTestId('rating-history').first().textContent()) ?? '', /1200 → 1220/);
    await shot(a.page, 'ranked-profile');

    // The leaderboard needs 10 ranked games: A is not on it yet, and it says why.
    await a.page.getByTestId('nav-leaderboard').click();
    await a.page.getByTestId('leaderboard').waitFor();
    assert.match((await a.page.getByTestId('your-rank').textContent()) ?? '', /not on this leaderboard/);
    await shot(a.page, 'ranked-leaderboard');

    // B deletes the account, after confirming: back to a guest prompt; the profile is anonymous.
    await b.page.getByTestId('my-profile').click();
    await b.page.getByTestId('delete-account').click();
    await b.page.getByTestId('delete-yes').click();
    await b.page.getByTestId('account-notice').waitFor();
    await b.page.getByTestId('nickname-input').waitFor();
    const meB = await b.page.request.get('/api/me');
    assert.equal(meB.status(), 401);
    const gameRes = await a.page.request.get(`/api/players/${await a.page.evaluate(async () => (await (await fetch('/api/me')).json()).id)}/games`);
    const games = (await gameRes.json()).games;
    assert.equal(games.length, 1);
    const opponent = games[0].players.first.name === a.nick ? games[0].players.second : games[0].players.first;
    assert.equal(opponent.name, 'anonymous', 'the game stays, anonymised');

    assert.deepEqual(a.errors, []);
    await a.ctx.close();
    await b.ctx.close();
  });

  it('two signed-in players queue for a ranked random opponent and play a rated game', async () => {
    const a = await signedInPage(`e2e-qa-${process.pid}`);
    const b = await signedInPage(`e2e-qb-${process.pid}`);

    // A queues first and is told the rating it is paired by, and that no AI stands in.
    await a.page.getByTestId('variant-xiangqi').click();
    await a.page.getByTestId('seek-ranked').check();
    await a.page.getByTestId('seek').click();
    await until(async () => /1200/.test((await a.page.getByTestId('seek-status').textContent()) ?? ''), 10_000, 'ranked wait shown');
    assert.match((await a.page.getByTestId('seek-status').textContent()) ?? '', /No computer/);
    await shot(a.page, 'ranked-queue');

    // B, rated the same, queues: both land in the same game at once.
    await b.page.getByTestId('variant-xiangqi').click();
    await b.page.getByTestId('seek-ranked').check();
    await b.page.getByTestId('seek').click();
    await a.page.waitForURL(/\/game\//);
    await b.page.waitForURL(/\/game\//);
    assert.equal(new URL(a.page.url()).pathname, new URL(b.page.url()).pathname);
    for (const p of [a.page, b.page]) {
      await until(async () => (await p.getByTestId('rating-first').textContent())?.includes('1200'), 10_000, 'rating shown');
    }

    // A resigns: the ratings move.
    await a.page.getByTestId('resign').click();
    await a.page.getByTestId('resign-yes').click();
    await b.page.getByTestId('rating-changes').waitFor();
    const text = await b.page.getByTestId('rating-changes').textContent();
    assert.match(text, /1200 → 1220 \(\+20\)/);
    assert.match(text, /1200 → 1180 \(-20\)/);

    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
    await a.ctx.close();
    await b.ctx.close();
  });
});
