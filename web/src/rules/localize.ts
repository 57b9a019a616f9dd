//! A translated rules page: the words only, block by block, laid over the English page's
//! structure (its diagrams, positions and marks are shared, so translations cannot drift).

import type { VariantKey } from '../net/protocol';
import type { Block, RulesDoc } from './types';

/** One entry per block: a paragraph, a list's items, a table's rows (head first), a caption. */
export type BlockText = string | string[] | string[][];

export interface DocText {
  intro: string;
  sections: Record<string, { title: string; blocks: BlockText[] }>;
}

export function localize(base: RulesDoc, text: DocText): RulesDoc {
  return {
    intro: text.intro,
    sections: base.sections.map((s) => {
      const tr = text.sections[s.id];
      if (!tr) throw new Error(`section ${s.id} is not translated`);
      if (tr.blocks.length !== s.blocks.length) throw new Error(`section ${s.id}: ${tr.blocks.length} blocks for ${s.blocks.length}`);
      return { id: s.id, title: tr.title, blocks: s.blocks.map((b, i) => block(b, tr.blocks[i]!, `${s.id}[${i}]`)) };
    }),
  };
}

function block(b: Block, t: BlockText, where: string): Block {
  const fail = (): never => {
    throw new Error(`${where}: text does not fit the block`);
  };
  if ('p' in b) return typeof t === 'string' ? { p: t } : fail();
  if ('diagram' in b) return typeof t === 'string' ? { diagram: { ...b.diagram, caption: t } } : fail();
  if ('ul' in b) {
    if (!Array.isArray(t) || t.length !== b.ul.length || t.some((x) => typeof x !== 'string')) fail();
    return { ul: t as string[] };
  }
  const rows = t as string[][];
  if (!Array.isArray(t) || rows.length !== b.table.rows.length + 1 || rows.some((r, i) => !Array.isArray(r) || r.length !== (i === 0 ? b.table.head : b.table.rows[i - 1]!).length)) fail();
  return { table: { head: rows[0]!, rows: rows.slice(1) } };
}

export function localizeAll(base: Record<VariantKey, RulesDoc>, text: Record<VariantKey, DocText>): Record<VariantKey, RulesDoc> {
  return {
    makruk: localize(base.makruk, text.makruk),
    xiangqi: localize(base.xiangqi, text.xiangqi),
    checkers: localize(base.checkers, text.checkers),
  };
}
