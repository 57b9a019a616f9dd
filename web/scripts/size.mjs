// Prints the gzipped size of what the first page loads (the entry script, its static imports
// and the stylesheet: everything index.html references), and of the chunks loaded later.
// Run after `npm run build`.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const first = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]));
const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

let total = 0;
console.log('first page:');
for (const f of [...first].sort()) {
  const n = gz(f);
  total += n;
  console.log(`  ${f.padEnd(40)} ${kb(n)}`);
}
const html_gz = gzipSync(html, { level: 9 }).length;
console.log(`  ${'index.html'.padEnd(40)} ${kb(html_gz)}`);
console.log(`first page JS+CSS gzipped: ${kb(total)} (${total} bytes)`);
console.log('loaded on demand:');
for (const f of readdirSync(join(dist, 'assets')).sort()) {
  const p = `assets/${f}`;
  if (first.has(p) || !/\.(js|css)$/.test(f)) continue;
  console.log(`  ${p.padEnd(40)} ${kb(gz(p))}`);
}
