// Shared helpers of the end-to-end tests: one headless Chromium (Debian's, driven by
// playwright-core) per test file, fresh browser contexts (= fresh cookies and storage) per
// test, screenshots under web/e2e/screenshots/.
//
// Environment: E2E_BASE_URL (the running `ttakji serve`, set by scripts/e2e.sh),
// E2E_CHROMIUM (default /usr/bin/chromium).

import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE = (process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = join(here, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Launches Chromium with the flags this machine needs (closed network, root, no GPU). */
export async function launch() {
  // Playwright gives every launch a new empty profile folder of its own (it refuses a
  // --user-data-dir flag) and deletes it on close; contexts inside it are fresh too.
  return chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh context (no cookies, empty localStorage) in English unless told otherwise. */
export async function newContext(browser, opts = {}) {
  const ctx = await browser.newContext({
    baseURL: BASE,
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    ...opts,
  });
  ctx.setDefaultTimeout(10_000);
  return ctx;
}

/** Collects page errors and console errors so a test can assert there were none. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // Without a session, GET /api/me answers 401 and Chromium logs the failed load: expected.
    if (/status of 401/.test(m.text()) && new URL(m.location().url || 'x:/', 'x:/').pathname === '/api/me') return;
    errors.push(`console: ${m.text()} (${m.location().url})`);
  });
  return errors;
}

/** Saves a screenshot and prints where it went. */
export async function shot(page, name, opts = {}) {
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true, ...opts });
  console.log(`# screenshot: ${relative(process.cwd(), path)}`);
  return path;
}

/** Saves a screenshot of one element (a board, a diagram) and prints where it went. */
export async function shotElement(locator, name) {
  const path = join(SHOTS, `${name}.png`);
  await locator.screenshot({ path });
  console.log(`# screenshot: ${relative(process.cwd(), path)}`);
  return path;
}

let seq = 0;
/** A nickname no other test uses (letters and digits only). */
export function uniqueNick(prefix = 'e2e') {
  seq += 1;
  return `${prefix}${process.pid % 10000}x${seq}`;
}

/** Fills the nickname dialog (open on a first visit) and waits for the header to show it. */
export async function chooseNickname(page, nick) {
  await page.getByTestId('nickname-input').fill(nick);
  await page.getByTestId('nickname-save').click();
  await page.getByTestId('nickname').filter({ hasText: nick }).waitFor();
  await page.getByTestId('nickname-input').waitFor({ state: 'detached' });
}

/** Opens `path` in a fresh page of `ctx` with a session named `nick` (cookie set by the UI). */
export async function pageWithSession(ctx, nick = uniqueNick(), path = '/') {
  const page = await ctx.newPage();
  await page.goto(path);
  await chooseNickname(page, nick);
  return page;
}

/** Polls `fn` until it returns a truthy value (or throws after `ms`). */
export async function until(fn, ms = 10_000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The page's horizontal overflow in CSS pixels (0 = no horizontal scrolling). */
export function horizontalOverflow(page) {
  return page.evaluate(() => {
    const d = document.documentElement;
    return Math.max(d.scrollWidth, document.body.scrollWidth) - d.clientWidth;
  });
}

/** Elements wider than the viewport or sticking out on the right (for the report). */
export function overflowingElements(page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) {
        const id = el.id ? `#${el.id}` : '';
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        out.push(`${el.tagName.toLowerCase()}${id}${cls} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
      }
    }
    return out.slice(0, 20);
  });
}
