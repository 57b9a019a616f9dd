//! `/rules/{variant}`: the rules of one game in the current language (loaded on demand; English
//! where a language has no text yet), with diagrams drawn by the board component.

import { h, type VNode } from 'snabbdom';
import type { App, PageCtrl } from '../app';
import { boardArt } from '../board/view';
import { type Lang, t } from '../i18n';
import type { VariantKey } from '../net/protocol';
import type { Block, Diagram, RulesDoc } from '../rules/types';
import { variantKeys, variants } from '../variants';
import { link } from '../view';

type Docs = Record<VariantKey, RulesDoc>;

/** Languages that have rules text; the others fall back to English. */
const loaders: Partial<Record<Lang, () => Promise<{ default: Docs }>>> = {
  en: () => import('../rules/rules-en'),
  th: () => import('../rules/rules-th'),
  zh: () => import('../rules/rules-zh'),
  hi: () => import('../rules/rules-hi'),
};

export class RulesCtrl implements PageCtrl {
  docs: Docs | null = null;
  docsLang: Lang | null = null;
  private loading: Lang | null = null;

  constructor(
    readonly app: App,
    readonly variant: VariantKey,
  ) {
    void this.load();
  }

  /** The language the text is in (English when the page's language has none). */
  wanted(): Lang {
    return loaders[this.app.lang] ? this.app.lang : 'en';
  }

  async load(): Promise<void> {
    const lang = this.wanted();
    if (this.docsLang === lang || this.loading === lang) return;
    this.loading = lang;
    const mod = await loaders[lang]!();
    this.loading = null;
    this.docs = mod.default;
    this.docsLang = lang;
    this.app.redraw();
  }

  view(): VNode {
    if (this.docsLang !== this.wanted()) void this.load();
    return rulesView(this);
  }
}

function diagramView(c: RulesCtrl, d: Diagram): VNode {
  const v = variants[c.variant];
  const pieces = v.parseFen(d.fen).pieces;
  return h('figure.diagram', [
    boardArt({
      variant: v,
      pieces,
      bottom: 'first',
      prefix: d.path ?? [],
      targets: d.targets ?? [],
      lastMove: d.last ?? [],
      check: d.check ?? null,
      mustCapture: new Set(d.must ?? []),
      movable: new Set(),
      style: c.app.prefs.pieceStyle,
      coords: d.coords ?? true,
      focus: null,
      drag: null,
    }),
    h('figcaption', d.caption),
  ]);
}

function blockView(c: RulesCtrl, b: Block): VNode {
  if ('p' in b) return h('p', b.p);
  if ('ul' in b) return h('ul', b.ul.map((li) => h('li', li)));
  if ('table' in b)
    return h('table', [
      h('thead', [h('tr', b.table.head.map((x) => h('th', { attrs: { scope: 'col' } }, x)))]),
      h('tbody', b.table.rows.map((r) => h('tr', r.map((x) => h('td', x))))),
    ]);
  return diagramView(c, b.diagram);
}

export function rulesView(c: RulesCtrl): VNode {
  const app = c.app;
  const variant = c.variant;
  const doc = c.docs?.[variant];
  const name = t(`variant.${variant}`);
  return h('article.panel.rules', { attrs: { 'data-testid': `rules-${variant}`, lang: c.docsLang ?? 'en' } }, [
    h('h1', { attrs: { lang: app.lang } }, t('rules.title', { variant: name })),
    c.docsLang && c.docsLang !== app.lang ? h('p.note', { attrs: { lang: app.lang } }, t('rules.untranslated')) : null,
    ...(doc
      ? [
          h('p.intro', doc.intro),
          h('nav.toc', { attrs: { 'aria-label': t('rules.contents'), lang: app.lang } }, [
            h('h2', t('rules.contents')),
            h('ol', doc.sections.map((s) => h('li', [h('a', { attrs: { href: `#${s.id}`, lang: c.docsLang ?? 'en' } }, s.title)]))),
          ]),
          ...doc.sections.map((s) =>
            h('section', { attrs: { 'aria-labelledby': s.id } }, [h(`h2#${s.id}`, s.title), ...s.blocks.map((b) => blockView(c, b))]),
          ),
        ]
      : [h('p', { attrs: { role: 'status' } }, t('rules.loading'))]),
    h('p', { attrs: { lang: app.lang } }, link(app, `/?variant=${variant}`, t('rules.back'))),
    h(
      'nav.other-rules',
      { attrs: { 'aria-label': t('nav.rules'), lang: app.lang } },
      variantKeys.filter((v) => v !== variant).map((v) => link(app, `/rules/${v}`, t('rules.title', { variant: t(`variant.${v}`) }))),
    ),
  ]);
}
