//! The game page's controller: owns the game state received from the server, the socket, the
//! board widget and the page's transient UI state. Views are in gameView.ts.

import type { VNode } from 'snabbdom';
import type { App, PageCtrl } from '../app';
import { BoardCtrl } from '../board/ctrl';
import { moveTable, resolveTyped } from '../board/input';
import { applyPreview } from '../board/preview';
import { clockShow } from '../clock';
import type {
  ErrorEvent,
  GameState,
  MoveEvent,
  OfferEvent,
  OfferKind,
  Side,
} from '../net/protocol';
import { ApiError, api } from '../net/api';
import { type ConnState, Socket, wsUrl } from '../net/socket';
import { markPromoted } from '../variants/makruk';
import { variants } from '../variants';
import type { MoveSyntax, Pieces } from '../variants/types';
import { gameView } from './gameView';

export class GameCtrl implements PageCtrl {
  game: GameState | null = null;
  board: BoardCtrl | null = null;
  conn: ConnState = 'connecting';
  /** performance.now() when the clock figures arrived. */
  clockAt = 0;
  confirmResign = false;
  /** Makruk: the next move starts or stops the count. */
  countIntent: 'start' | 'stop' | null = null;
  typed = '';
  typedError = '';
  notice = '';
  copied = false;
  /** The server says there is no such game. */
  missing = false;
  /** Ranked games: the players' ratings in this game, by player id. */
  ratings: Partial<Record<number, number>> = {};
  /** Players whose ratings were asked for (a friend's seat fills in after the first state). */
  private ratingsAsked = new Set<number>();
  private checked = false;
  private socket: Socket;
  private ticker: ReturnType<typeof setInterval>;
  private pendingId: number | null = null;

  constructor(
    readonly app: App,
    readonly id: string,
  ) {
    this.socket = this.connect();
    // Redraw only when the running clock's text changes (every second, or tenth when low).
    let shown = '';
    this.ticker = setInterval(() => {
      const g = this.game;
      const side = g?.clock?.running;
      if (!g?.clock || !side || g.result) return;
      const text = clockShow(g.clock[side], this.elapsed()).text;
      if (text !== shown) {
        shown = text;
        app.redraw();
      }
    }, 100);
  }

  private connect(): Socket {
    const app = this.app;
    const id = this.id;
    return new Socket({
      url: wsUrl(`/ws/game/${encodeURIComponent(id)}`),
      versioned: true,
      handlers: {
        full: (d: GameState) => this.apply(d, null),
        move: (d: MoveEvent) => this.apply(withMove(this.game, d), variants[d.state.variant].parseMove(d.uci)?.path ?? null),
        end: (d: GameState) => this.apply(d, null),
        offer: (d: OfferEvent) => this.offer(d),
        rematch: (d: { gameId: string }) => this.app.navigate(`/game/${d.gameId}`),
        presence: (d: Record<Side, boolean>) => this.presence(d),
        ack: () => {
          this.pendingId = null;
        },
        error: (d: ErrorEvent) => this.refused(d),
        pong: () => {},
      },
      onState: (s) => {
        this.conn = s;
        if (s === 'reconnecting' && !this.game) void this.checkExists();
        app.redraw();
      },
    }).connect();
  }

  /** The socket failed before any state came: ask over HTTP whether the game exists at all. */
  private async checkExists(): Promise<void> {
    if (this.checked) return;
    this.checked = true;
    try {
      const g = await api.game(this.id);
      if (!this.game) this.apply(g, null);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        this.missing = true;
        this.socket.close();
        this.app.redraw();
      } else this.checked = false;
    }
  }

  /** The visitor just got a session: connect again so the server knows who is here. */
  onSession(fresh: boolean): void {
    if (!fresh) return;
    this.socket.close();
    this.socket = this.connect();
  }

  destroy(): void {
    clearInterval(this.ticker);
    this.socket.close();
  }

  view(): VNode {
    return gameView(this);
  }

  // Server events ---------------------------------------------------------------------------

  /** The pieces to draw for a state (Makruk: Bia ngai found from the move list). */
  piecesOf(g: GameState): Pieces {
    const v = variants[g.variant];
    const pos = v.parseFen(g.fen);
    if (g.variant !== 'makruk') return pos.pieces;
    return markPromoted(
      pos.pieces,
      v.parseFen(g.initialFen).pieces,
      g.moves.map((m) => m.uci),
    );
  }

  private async loadRatings(ids: readonly number[], variant: GameState['variant']): Promise<void> {
    for (const id of ids) {
      try {
        const profile = await api.profile(id);
        const r = profile.ratings.find((x) => x.variant === variant);
        // Before a first ranked game the rating is the starting one.
        this.ratings[id] = r?.rating ?? 1200;
      } catch {
        /* the name is shown without a rating */
      }
    }
    this.app.redraw();
  }

  apply(g: GameState, moved: readonly string[] | null): void {
    const v = variants[g.variant];
    this.game = g;
    if (g.rated) {
      const ids = [g.players.first.id, g.players.second.id].filter((id): id is number => id !== null && !this.ratingsAsked.has(id));
      if (ids.length > 0) {
        ids.forEach((id) => this.ratingsAsked.add(id));
        void this.loadRatings(ids, g.variant);
      }
    }
    this.clockAt = performance.now();
    this.pendingId = null;
    if (g.result) {
      this.confirmResign = false;
      this.countIntent = null;
    }
    if (!this.board || this.board.variant !== v) {
      this.board = new BoardCtrl(v, g.you ?? 'first', this.app.redraw, (m) => this.play(m));
    }
    const pieces = this.piecesOf(g);
    const last = g.moves[g.moves.length - 1];
    let check: string | null = null;
    if (g.check && v.royal) {
      for (const [sq, p] of pieces) if (p.role === v.royal && p.side === g.turn) check = sq;
    }
    this.board.setPosition({
      pieces,
      legal: this.canMove() ? g.legal : [],
      lastMove: last ? (v.parseMove(last.uci)?.path ?? []) : [],
      check,
      moved,
    });
    this.app.redraw();
  }

  private offer(d: OfferEvent): void {
    if (!this.game) return;
    this.game = { ...this.game, offers: { ...this.game.offers, [d.kind]: d.by } };
    this.app.redraw();
  }

  private presence(d: Record<Side, boolean>): void {
    const g = this.game;
    if (!g) return;
    this.game = {
      ...g,
      players: {
        first: { ...g.players.first, connected: d.first },
        second: { ...g.players.second, connected: d.second },
      },
    };
    this.app.redraw();
  }

  private refused(d: ErrorEvent): void {
    this.notice = d.message || d.error;
    // A refused move: put the board back as the server has it.
    if (d.id !== undefined && Number(d.id) === this.pendingId && this.game) this.apply(this.game, null);
    this.app.redraw();
  }

  // Player actions --------------------------------------------------------------------------

  canMove(): boolean {
    const g = this.game;
    return !!g && !g.result && g.you !== null && g.you === g.turn && this.pendingId === null;
  }

  play(m: MoveSyntax): void {
    const g = this.game;
    if (!g || !this.board || !this.canMove()) return;
    this.notice = '';
    this.typedError = '';
    this.pendingId = this.socket.move(m.uci, this.countIntent ?? undefined);
    this.countIntent = null;
    const v = variants[g.variant];
    this.board.setPosition({
      pieces: applyPreview(v, this.board.pieces, m),
      legal: [],
      lastMove: m.path,
      check: null,
      moved: m.path,
    });
    this.app.redraw();
  }

  submitTyped(): void {
    const g = this.game;
    if (!g || !this.board) return;
    if (!this.canMove()) {
      this.typedError = 'game.typed.notYourTurn';
    } else {
      const v = variants[g.variant];
      const r = resolveTyped(v, moveTable(v, g.legal), this.board.pieces, this.typed);
      if ('ok' in r) {
        this.typed = '';
        this.typedError = '';
        this.play(r.ok);
        return;
      }
      this.typedError = `game.typed.${r.error}`;
    }
    this.app.redraw();
  }

  resign(confirmed: boolean): void {
    if (!confirmed) {
      this.confirmResign = true;
    } else {
      this.confirmResign = false;
      this.socket.send('resign');
    }
    this.app.redraw();
  }

  cancelResign(): void {
    this.confirmResign = false;
    this.app.redraw();
  }

  respond(kind: Exclude<OfferKind, 'takeback'>, action: 'offer' | 'accept' | 'decline'): void {
    this.socket.send(kind, { action });
  }

  takeback(): void {
    this.socket.send('takeback');
  }

  abort(): void {
    this.socket.send('abort');
  }

  toggleCount(kind: 'start' | 'stop'): void {
    this.countIntent = this.countIntent === kind ? null : kind;
    this.app.redraw();
  }

  flip(): void {
    this.board?.flip();
    this.app.redraw();
  }

  async copyLink(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.copied = true;
    } catch {
      this.copied = false;
    }
    this.app.redraw();
  }

  /** Milliseconds since the clock figures arrived (for the running side). */
  elapsed(): number {
    return performance.now() - this.clockAt;
  }
}

/**
 * The state a `move` event leads to. The event's state has no `moves` list (so that events do
 * not grow with the game): the event's own move is appended to the moves known so far, cut at
 * its ply in case an event is seen twice.
 */
export function withMove(prev: GameState | null, d: MoveEvent): GameState {
  const same = prev !== null && prev.id === d.state.id;
  const you = d.state.you !== undefined ? d.state.you : same ? prev.you : null;
  if (d.state.moves) return { ...d.state, you, moves: d.state.moves };
  const before = same ? prev.moves.slice(0, d.ply - 1) : [];
  return { ...d.state, you, moves: [...before, { uci: d.uci, san: d.san }] };
}
