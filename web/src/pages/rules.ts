//! Rules pages: the routes and an outline for now; the full text comes in a later step.

import { h, type VNode } from 'snabbdom';
import type { App } from '../app';
import { t } from '../i18n';
import type { VariantKey } from '../net/protocol';
import { variantKeys } from '../variants';
import { link } from '../view';

export function rulesView(app: App, variant: VariantKey): VNode {
  const name = t(`variant.${variant}`);
  return h('article.panel.rules', { attrs: { 'data-testid': `rules-${variant}` } }, [
    h('h1', t('rules.title', { variant: name })),
    h('p.note', t('rules.soon')),
    h('h2', t('rules.board')),
    h('p', t(`rules.${variant}.board`)),
    h('h2', t('rules.pieces')),
    h(
      'ul',
      rolesOf(variant).map((r) => h('li', t(`piece.${r}`))),
    ),
    h('h2', t('rules.end')),
    h('p', t(`rules.${variant}.end`)),
    h('h2', t('rules.tips')),
    h('h2', t('rules.faq')),
    h('p', link(app, `/?variant=${variant}`, t('rules.back'))),
    h(
      'nav.other-rules',
      { attrs: { 'aria-label': t('nav.rules') } },
      variantKeys.filter((v) => v !== variant).map((v) => link(app, `/rules/${v}`, t('rules.title', { variant: t(`variant.${v}`) }))),
    ),
  ]);
}

function rolesOf(variant: VariantKey): string[] {
  switch (variant) {
    case 'makruk':
      return ['khun', 'met', 'khon', 'ma', 'rua', 'bia', 'biaNgai'];
    case 'xiangqi':
      return ['general', 'advisor', 'elephant', 'horse', 'chariot', 'cannon', 'soldier'];
    case 'checkers':
      return ['man', 'king'];
  }
}
