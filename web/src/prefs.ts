//! Settings remembered in the browser.

import type { PieceStyle } from './board/pieces';
import type { Level, Side, VariantKey } from './net/protocol';

export interface Prefs {
  pieceStyle: PieceStyle;
  coords: boolean;
  variant: VariantKey;
  level: Level;
  side: Side | 'random';
}

const KEY = 'ttakji.prefs';
const defaults: Prefs = { pieceStyle: 'characters', coords: true, variant: 'makruk', level: 'normal', side: 'random' };

export function loadPrefs(storage: Pick<Storage, 'getItem'> | null = safeStorage()): Prefs {
  try {
    const raw = storage?.getItem(KEY);
    return raw ? { ...defaults, ...(JSON.parse(raw) as Partial<Prefs>) } : { ...defaults };
  } catch {
    return { ...defaults };
  }
}

export function savePrefs(p: Prefs, storage: Pick<Storage, 'setItem'> | null = safeStorage()): void {
  try {
    storage?.setItem(KEY, JSON.stringify(p));
  } catch {
    /* not remembered */
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
