import { describe, expect, it } from 'vitest';
import { detectLanguage, initI18n, setLanguage, t } from './index';
import en from './locales/en';
import hi from './locales/hi';
import th from './locales/th';
import zh from './locales/zh';

/** Every key, with plural suffixes folded (Thai and Chinese have only `_other`). */
function keys(o: object, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(o)) {
    const name = prefix + k.replace(/_(zero|one|two|few|many|other)$/, '');
    if (typeof v === 'object' && v) for (const s of keys(v, `${name}.`)) out.add(s);
    else out.add(name);
  }
  return out;
}

function placeholders(o: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(o)) {
    const name = prefix + k.replace(/_(zero|one|two|few|many|other)$/, '');
    if (typeof v === 'object' && v) for (const [a, b] of placeholders(v, `${name}.`)) out.set(a, b);
    else out.set(name, [...String(v).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(','));
  }
  return out;
}

describe('locales', () => {
  const base = keys(en);
  for (const [name, loc] of Object.entries({ hi, th, zh })) {
    it(`${name} has exactly the English keys`, () => {
      expect([...keys(loc)].sort()).toEqual([...base].sort());
    });
    it(`${name} uses the same placeholders`, () => {
      const a = placeholders(en);
      for (const [k, v] of placeholders(loc)) expect(`${k}: ${v}`).toBe(`${k}: ${a.get(k)}`);
    });
  }
  it('gives every plural key an _other form', () => {
    for (const loc of [en, hi, th, zh]) {
      const flat = JSON.stringify(loc);
      for (const m of flat.matchAll(/"(\w+)_one"/g)) expect(flat).toContain(`"${m[1]}_other"`);
    }
  });
});

describe('language choice', () => {
  it('prefers the stored choice, then the browser, then English', () => {
    expect(detectLanguage('th', ['zh-CN'])).toBe('th');
    expect(detectLanguage(null, ['fr-FR', 'zh-CN'])).toBe('zh');
    expect(detectLanguage(null, ['hi-IN'])).toBe('hi');
    expect(detectLanguage('xx', ['fr'])).toBe('en');
  });
});

describe('plurals', () => {
  it('uses each language’s plural rules', async () => {
    await initI18n('en');
    expect(t('counters.movesLeft', { count: 1 })).toBe('1 move left');
    expect(t('counters.movesLeft', { count: 5 })).toBe('5 moves left');
    await setLanguage('hi', false);
    expect(t('clock.periods', { count: 1 })).toBe('1 अवधि');
    expect(t('clock.periods', { count: 3 })).toBe('3 अवधियाँ');
    await setLanguage('th', false);
    expect(t('counters.movesLeft', { count: 1 })).toBe('เหลืออีก 1 ตา');
    await setLanguage('zh', false);
    expect(t('result.reason.timeout')).toBe('超时');
  });
});
