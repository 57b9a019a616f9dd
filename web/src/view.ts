//! The page frame: header (brand, navigation, language, settings, nickname), the current
//! page, the nickname dialog and the footer.

import { h, type VNode, type VNodeChildren } from 'snabbdom';
import type { App } from './app';
import { type Lang, languageNames, languages, t } from './i18n';
import { renderGoogleButton, signInMode } from './net/auth';
import type { GameState } from './net/protocol';

export function link(app: App, href: string, text: VNodeChildren, attrs: Record<string, string> = {}): VNode {
  return h('a', { attrs: { href, ...attrs }, on: { click: app.link } }, text);
}

function header(app: App): VNode {
  return h('header.top', [
    h('a.skip', { attrs: { href: '#main' } }, t('app.skip')),
    link(app, '/', [h('span.logo', { attrs: { 'aria-hidden': 'true' } }, '◆'), ' ', t('app.name')], { class: 'brand' }),
    h('nav', { attrs: { 'aria-label': t('app.name') } }, [
      link(app, '/', t('nav.home')),
      link(app, `/rules/${app.route.page === 'rules' ? app.route.variant : app.prefs.variant}`, t('nav.rules')),
      link(app, `/leaderboard/${app.route.page === 'leaderboard' ? app.route.variant : app.prefs.variant}`, t('ranked.leaderboard'), {
        'data-testid': 'nav-leaderboard',
      }),
    ]),
    h('div.tools', [
      h('label.lang', [
        h('span.sr-only', t('nav.language')),
        h(
          'select',
          {
            attrs: { 'data-testid': 'language', 'aria-label': t('nav.language') },
            props: { value: app.lang },
            on: { change: (e: Event) => void app.setLang((e.target as HTMLSelectElement).value as Lang) },
          },
          languages.map((l) => h('option', { attrs: { value: l, lang: l }, props: { selected: l === app.lang } }, languageNames[l])),
        ),
      ]),
      settings(app),
      accountView(app),
      app.me
        ? h(
            'button.nick',
            {
              attrs: { type: 'button', 'data-testid': 'nickname', title: t('nick.change'), 'aria-label': t('nick.playingAs', { name: app.me.nickname }) },
              on: { click: () => app.openNick() },
            },
            // Phones show the name alone so that the header keeps to two lines.
            [h('span.long', t('nick.playingAs', { name: app.me.nickname })), h('span.short', app.me.nickname)],
          )
        : null,
    ]),
  ]);
}

/** Sign-in (Google's button or the development form) or, once signed in, the profile link. */
function accountView(app: App): VNode | null {
  const me = app.me;
  if (me?.signedIn) return link(app, `/player/${me.id}`, t('account.profile'), { 'data-testid': 'my-profile', class: 'account' });
  const mode = signInMode(app.config);
  const error = app.account.error ? h('span.error', { attrs: { role: 'alert' } }, t('account.signInFailed', { message: app.account.error })) : null;
  switch (mode.kind) {
    case 'unavailable':
      return null;
    case 'google':
      return h('span.account', [
        h('span.gsi', {
          key: `gsi-${app.lang}`,
          attrs: { title: t('account.signInHint'), 'data-testid': 'google-sign-in' },
          hook: {
            insert: (v) =>
              void renderGoogleButton(v.elm as HTMLElement, mode.clientId, app.lang, (credential) => void app.signIn(credential)).catch((e: unknown) => {
                app.account.error = e instanceof Error ? e.message : String(e);
                app.redraw();
              }),
          },
        }),
        error,
      ]);
    case 'dev':
      return h(
        'form.account.dev',
        {
          on: {
            submit: (e: Event) => {
              e.preventDefault();
              if (app.account.devSub.trim()) void app.signIn(null);
            },
          },
        },
        [
          h('input', {
            attrs: { type: 'text', 'aria-label': t('account.devAccount'), placeholder: t('account.devAccount'), 'data-testid': 'dev-sub' },
            props: { value: app.account.devSub },
            on: { input: (e: Event) => (app.account.devSub = (e.target as HTMLInputElement).value) },
          }),
          h('button', { attrs: { type: 'submit', 'data-testid': 'dev-sign-in' } }, t('account.devSignIn')),
          error,
        ],
      );
  }
}

function settings(app: App): VNode {
  const p = app.prefs;
  return h('details.settings', [
    h('summary', { attrs: { 'aria-label': t('nav.settings') } }, [h('span.gear', { attrs: { 'aria-hidden': 'true' } }, '⚙'), h('span.label', t('nav.settings'))]),
    h('div.menu', [
      h('fieldset', [
        h('legend', t('settings.pieceStyle')),
        ...(['characters', 'pictures'] as const).map((s) =>
          h('label', [
            h('input', {
              attrs: { type: 'radio', name: 'piece-style', value: s, 'data-testid': `style-${s}` },
              props: { checked: p.pieceStyle === s },
              on: { change: () => app.setPrefs({ pieceStyle: s }) },
            }),
            ' ',
            t(`settings.${s}`),
          ]),
        ),
      ]),
      h('label', [
        h('input', {
          attrs: { type: 'checkbox' },
          props: { checked: p.coords },
          on: { change: (e: Event) => app.setPrefs({ coords: (e.target as HTMLInputElement).checked }) },
        }),
        ' ',
        t('settings.coordinates'),
      ]),
    ]),
  ]);
}

/** Keeps Tab inside a modal dialog. */
function trapFocus(e: KeyboardEvent): void {
  const root = e.currentTarget as HTMLElement;
  const items = [...root.querySelectorAll<HTMLElement>('input, button:not([disabled])')];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

function nickDialog(app: App): VNode | null {
  if (!app.nick.open) return null;
  const n = app.nick;
  const error = n.error.startsWith('!') ? n.error.slice(1) : n.error ? t(n.error) : '';
  return h('div.modal', { attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'nick-title' } }, [
    h(
      'form.panel',
      {
        on: {
          submit: (e: Event) => {
            e.preventDefault();
            void app.saveNick();
          },
          keydown: (e: KeyboardEvent) => {
            if (e.key === 'Escape') app.closeNick();
            if (e.key === 'Tab') trapFocus(e);
          },
        },
      },
      [
        h('h2#nick-title', t('nick.title')),
        h('p', t('nick.intro')),
        h('label', { attrs: { for: 'nick-input' } }, t('nick.label')),
        h('input#nick-input', {
          attrs: {
            type: 'text',
            autocomplete: 'nickname',
            maxlength: 20,
            required: true,
            'aria-describedby': 'nick-hint nick-error',
            'data-testid': 'nickname-input',
          },
          props: { value: n.draft },
          on: {
            input: (e: Event) => {
              app.nick.draft = (e.target as HTMLInputElement).value;
              app.redraw();
            },
          },
          hook: { insert: (v) => (v.elm as HTMLInputElement).focus() },
        }),
        h('p#nick-hint.hint', t('nick.hint')),
        h('p#nick-error.error', { attrs: { role: 'alert' } }, error),
        h('div.row', [
          h('button.primary', { attrs: { type: 'submit', disabled: n.busy, 'data-testid': 'nickname-save' } }, t('nick.save')),
          app.me ? h('button', { attrs: { type: 'button' }, on: { click: () => app.closeNick() } }, t('home.cancel')) : null,
        ]),
      ],
    ),
  ]);
}

function notFound(app: App): VNode {
  return h('section.panel', [h('h1', t('errors.notFound')), link(app, '/', t('rules.back'))]);
}

/** The document title for the current page. */
export function pageTitle(app: App): string {
  const r = app.route;
  const name = t('app.name');
  switch (r.page) {
    case 'rules':
      return `${t('rules.title', { variant: t(`variant.${r.variant}`) })} · ${name}`;
    case 'game': {
      const g = (app.page as { game?: GameState | null } | null)?.game;
      if (!g) return name;
      // Seen from another tab: whose move it is.
      const yours = g.you !== null && g.turn === g.you && !g.result;
      return `${yours ? `● ${t('game.yourTurn')} · ` : ''}${t(`variant.${g.variant}`)} · ${name}`;
    }
    case 'invite':
      return `${t('invite.title')} · ${name}`;
    case 'leaderboard':
      return `${t('ranked.title', { variant: t(`variant.${r.variant}`) })} · ${name}`;
    default:
      return name;
  }
}

export function appView(app: App): VNode {
  const page = app.page ? app.page.view() : notFound(app);
  return h('div#app', { attrs: { lang: app.lang } }, [
    header(app),
    h('main#main', { attrs: { tabindex: '-1' } }, [
      app.account.notice ? h('p.notice', { attrs: { role: 'status', 'data-testid': 'account-notice' } }, app.account.notice) : null,
      page,
    ]),
    h('footer', [h('p', t('app.footer'))]),
    nickDialog(app),
  ]);
}
