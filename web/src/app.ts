//! The application: session, preferences, language, routing and the current page's
//! controller. `App.redraw` patches the whole view (snabbdom diffs it) once per frame.

import { attributesModule, classModule, eventListenersModule, init, propsModule, styleModule, type VNode } from 'snabbdom';
import { currentLanguage, type Lang, setLanguage, t } from './i18n';
import { ApiError, api, validNickname } from './net/api';
import { devSignIn } from './net/auth';
import type { Me, ServerConfig } from './net/protocol';
import { GameCtrl } from './pages/game';
import { HomeCtrl } from './pages/home';
import { InviteCtrl } from './pages/invite';
import { LeaderboardCtrl } from './pages/leaderboard';
import { ProfileCtrl } from './pages/profile';
import { RulesCtrl } from './pages/rules';
import { type Prefs, loadPrefs, savePrefs } from './prefs';
import { type Route, parseRoute } from './router';
import { appView, pageTitle } from './view';

export interface PageCtrl {
  view(): VNode;
  /** The session is known: `fresh` when it was just created by the nickname prompt. */
  onSession?(fresh: boolean): void;
  destroy?(): void;
}

export class App {
  route: Route;
  /** undefined while loading; null without a session. */
  me: Me | null | undefined = undefined;
  prefs: Prefs = loadPrefs();
  lang: Lang = currentLanguage();
  page: PageCtrl | null = null;
  nick = { open: false, draft: '', error: '', busy: false };
  /** What the server offers (sign-in, ranked play); null until known. */
  config: ServerConfig | null = null;
  /** Sign-in: the development issuer's account field, the last error, a notice. */
  account = { devSub: '', error: '', notice: '' };

  private vnode: VNode | Element;
  private path = '';
  private readonly patch = init([classModule, propsModule, attributesModule, styleModule, eventListenersModule]);
  private frame = 0;

  constructor(root: Element) {
    this.vnode = root;
    this.route = parseRoute(location.pathname, location.search);
    window.addEventListener('popstate', () => {
      // A jump to an anchor on the same page (the rules' contents) is not a new page.
      if (location.pathname + location.search === this.path) return;
      this.go(parseRoute(location.pathname, location.search));
    });
    this.go(this.route);
    void this.loadMe();
    void this.loadConfig();
  }

  private async loadConfig(): Promise<void> {
    try {
      this.config = await api.config();
    } catch (e) {
      console.warn('GET /api/config', e);
    }
    this.redraw();
  }

  /** Signs in with an ID token (Google's credential, or the development issuer's). */
  async signIn(credential: string | null): Promise<void> {
    this.account.error = '';
    try {
      this.me = credential === null ? await devSignIn(this.account.devSub.trim()) : await api.signIn(credential);
      this.nick.open = false;
      this.page?.onSession?.(false);
    } catch (e) {
      this.account.error = e instanceof ApiError && e.message ? e.message : t('errors.network');
    }
    this.redraw();
  }

  async signOut(): Promise<void> {
    try {
      await api.signOut();
    } catch (e) {
      console.warn('sign out', e);
    }
    this.signedOut('');
  }

  /** The session is over (signed out, account deleted): back home, asking for a nickname. */
  signedOut(notice: string): void {
    this.me = null;
    this.account.notice = notice;
    this.navigate('/');
    this.openNick();
  }

  private async loadMe(): Promise<void> {
    try {
      this.me = await api.me();
    } catch (e) {
      this.me = null;
      if (!(e instanceof ApiError) || e.status !== 401) console.warn('GET /api/me', e);
    }
    if (this.me === null && this.route.page !== 'rules') this.openNick();
    if (this.me) this.page?.onSession?.(false);
    this.redraw();
  }

  redraw = (): void => {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.vnode = this.patch(this.vnode, appView(this));
      const title = pageTitle(this);
      if (document.title !== title) document.title = title;
    });
  };

  navigate(path: string, replace = false): void {
    if (replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    const url = new URL(path, location.href);
    this.go(parseRoute(url.pathname, url.search));
    window.scrollTo(0, 0);
    // Screen readers: start reading the new page from its main content.
    requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById('main')?.focus({ preventScroll: true })));
  }

  /** Link handler: in-app navigation for plain left clicks. */
  link = (ev: MouseEvent): void => {
    const a = (ev.currentTarget as HTMLElement).closest('a');
    if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    if (a.origin !== location.origin || a.hasAttribute('download')) return;
    ev.preventDefault();
    this.navigate(a.pathname + a.search);
  };

  private go(route: Route): void {
    this.page?.destroy?.();
    this.route = route;
    this.path = location.pathname + location.search;
    switch (route.page) {
      case 'home':
        this.page = new HomeCtrl(this, route.variant);
        break;
      case 'game':
        this.page = new GameCtrl(this, route.id);
        break;
      case 'invite':
        this.page = new InviteCtrl(this, route.token);
        break;
      case 'rules':
        this.page = new RulesCtrl(this, route.variant);
        break;
      case 'leaderboard':
        this.page = new LeaderboardCtrl(this, route.variant);
        break;
      case 'player':
        this.page = new ProfileCtrl(this, route.id);
        break;
      default:
        this.page = null;
    }
    this.redraw();
  }

  setPrefs(p: Partial<Prefs>): void {
    this.prefs = { ...this.prefs, ...p };
    savePrefs(this.prefs);
    this.redraw();
  }

  async setLang(lang: Lang): Promise<void> {
    await setLanguage(lang);
    this.lang = lang;
    this.redraw();
  }

  openNick(): void {
    this.nick = { open: true, draft: this.me?.nickname ?? '', error: '', busy: false };
    this.redraw();
  }

  closeNick(): void {
    if (!this.me) return; // a nickname is needed to play
    this.nick.open = false;
    this.redraw();
  }

  async saveNick(): Promise<void> {
    const name = this.nick.draft.trim();
    if (!validNickname(name)) {
      this.nick.error = 'nick.invalid';
      this.redraw();
      return;
    }
    this.nick.busy = true;
    this.redraw();
    try {
      const fresh = !this.me;
      this.me = this.me ? await api.rename(name) : await api.createSession(name);
      this.nick = { open: false, draft: '', error: '', busy: false };
      if (fresh) this.page?.onSession?.(true);
    } catch (e) {
      this.nick.busy = false;
      this.nick.error = e instanceof ApiError && e.message ? `!${e.message}` : 'errors.network';
    }
    this.redraw();
  }
}
