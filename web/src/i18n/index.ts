//! i18next set-up: English is bundled, the other languages load on demand. The language comes
//! from the stored choice, else from the browser, else English.

import i18next, { type TOptions } from 'i18next';
import en from './locales/en';

export const languages = ['en', 'hi', 'th', 'zh'] as const;
export type Lang = (typeof languages)[number];

/** Each language's own name, for the switcher. */
export const languageNames: Record<Lang, string> = { en: 'English', hi: 'हिन्दी', th: 'ไทย', zh: '简体中文' };

const loaders: Record<Lang, () => Promise<{ default: object }>> = {
  en: async () => ({ default: en }),
  hi: () => import('./locales/hi'),
  th: () => import('./locales/th'),
  zh: () => import('./locales/zh'),
};

const STORE_KEY = 'ttakji.lang';

/** The first supported language among the stored one and the browser's list. */
export function detectLanguage(stored: string | null, browser: readonly string[]): Lang {
  for (const tag of [stored, ...browser]) {
    if (!tag) continue;
    const base = tag.toLowerCase().split(/[-_]/)[0] as Lang;
    if ((languages as readonly string[]).includes(base)) return base;
  }
  return 'en';
}

export async function initI18n(lang?: Lang): Promise<Lang> {
  const chosen = lang ?? detectLanguage(safeGet(STORE_KEY), typeof navigator === 'undefined' ? [] : navigator.languages ?? []);
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false }, // the view layer escapes text itself
    returnNull: false,
  });
  await setLanguage(chosen, false);
  return chosen;
}

export async function setLanguage(lang: Lang, remember = true): Promise<void> {
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    const mod = await loaders[lang]();
    i18next.addResourceBundle(lang, 'translation', mod.default);
  }
  await i18next.changeLanguage(lang);
  if (remember) safeSet(STORE_KEY, lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : lang;
}

export const currentLanguage = (): Lang => (i18next.language as Lang) ?? 'en';

export const t = (key: string, opts?: TOptions): string => i18next.t(key, opts) as string;

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: not remembered */
  }
}
