//! The games the client knows, by key.

import type { VariantKey } from '../net/protocol';
import { checkers } from './checkers';
import { makruk } from './makruk';
import type { Variant } from './types';
import { xiangqi } from './xiangqi';

export const variants: Record<VariantKey, Variant> = { makruk, xiangqi, checkers };
export const variantKeys: VariantKey[] = ['makruk', 'xiangqi', 'checkers'];

export const isVariantKey = (s: string): s is VariantKey => s in variants;

export const initialFens: Record<VariantKey, string> = {
  makruk: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1',
  xiangqi: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  checkers: 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12',
};

export type { Variant } from './types';
