//! A WebSocket that reconnects with backoff and speaks `{t, d, v}`: messages dispatch through a
//! handler map keyed by type; versioned events are applied in order, duplicates dropped, and a
//! gap (or a reconnect) resyncs with `?v=<last seen>`; moves carry ack ids.

import type { Envelope } from './protocol';

export type ConnState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The part of the browser's WebSocket this client uses (a fake one in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export type Handler = (d: any, msg: Envelope) => void;
export type Handlers = Record<string, Handler>;

export interface SocketOptions {
  /** Address without the version query. */
  url: string;
  handlers: Handlers;
  /** Game sockets are versioned (`?v=`); the lobby socket is not. */
  versioned?: boolean;
  onState?: (s: ConnState) => void;
  /** Called with every message that has no handler. */
  onUnhandled?: (msg: Envelope) => void;
  create?: (url: string) => SocketLike;
  random?: () => number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  pingMs?: number;
  /** No message for this long: the connection is taken as dead and replaced. */
  deadMs?: number;
}

const OPEN = 1;

export class Socket {
  state: ConnState = 'connecting';
  /** Last version applied; -1 before the first `full`. */
  version = -1;
  /** Moves sent and not yet acknowledged, by id. */
  readonly pending = new Map<number, Envelope>();
  /** Round trip of the last ping, ms. */
  lagMs: number | null = null;

  private ws: SocketLike | null = null;
  private attempts = 0;
  private nextId = 1;
  private outbox: Envelope[] = [];
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setTimeout> | null = null;
  private deadTimer: ReturnType<typeof setTimeout> | null = null;
  private pingSentAt = 0;
  private closed = false;
  private readonly opts: Required<Omit<SocketOptions, 'onState' | 'onUnhandled'>> &
    Pick<SocketOptions, 'onState' | 'onUnhandled'>;

  constructor(opts: SocketOptions) {
    this.opts = {
      versioned: false,
      create: (url) => new WebSocket(url) as unknown as SocketLike,
      random: Math.random,
      minBackoffMs: 500,
      maxBackoffMs: 15_000,
      pingMs: 10_000,
      deadMs: 25_000,
      ...opts,
    };
  }

  connect(): this {
    this.closed = false;
    this.open();
    return this;
  }

  /** The address of the next connection, with the version to resume from. */
  currentUrl(): string {
    const { url, versioned } = this.opts;
    if (!versioned || this.version < 0) return url;
    return `${url}${url.includes('?') ? '&' : '?'}v=${this.version}`;
  }

  /** Sends now, or as soon as the socket is open. */
  send(t: string, d: unknown = {}): void {
    const msg: Envelope = { t, d };
    if (this.ws && this.ws.readyState === OPEN && this.state === 'open') this.ws.send(JSON.stringify(msg));
    else this.outbox.push(msg);
  }

  /** Sends a move with a fresh ack id and returns the id. */
  move(uci: string, count?: 'start' | 'stop'): number {
    const id = this.nextId++;
    const d: Record<string, unknown> = { uci, id };
    if (count) d.count = count;
    this.pending.set(id, { t: 'move', d });
    this.send('move', d);
    return id;
  }

  /** Closes for good (leaving the page). */
  close(): void {
    this.closed = true;
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
      ws.close(1000);
    }
    this.setState('closed');
  }

  /** Delay before reconnect attempt number `n` (0-based): doubling, capped, with jitter. */
  backoff(n: number): number {
    const { minBackoffMs, maxBackoffMs, random } = this.opts;
    const base = Math.min(maxBackoffMs, minBackoffMs * 2 ** n);
    return Math.round(base / 2 + (random() * base) / 2);
  }

  private open(): void {
    this.setState(this.attempts === 0 && this.version < 0 ? 'connecting' : 'reconnecting');
    let ws: SocketLike;
    try {
      ws = this.opts.create(this.currentUrl());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempts = 0;
      this.setState('open');
      const out = this.outbox;
      this.outbox = [];
      for (const m of out) ws.send(JSON.stringify(m));
      this.schedulePing();
      this.armDead();
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.armDead();
      this.receive(ev.data);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      this.drop();
    };
    ws.onerror = () => {
      /* a close event follows */
    };
  }

  /** The connection is gone: unacked moves are dropped (the resync tells what happened). */
  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
    this.pending.clear();
    this.clearTimers();
    if (!this.closed) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.setState('reconnecting');
    const delay = this.backoff(this.attempts++);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.closed) this.open();
    }, delay);
  }

  private receive(data: unknown): void {
    let msg: Envelope;
    try {
      msg = JSON.parse(String(data)) as Envelope;
    } catch {
      return;
    }
    if (!msg || typeof msg.t !== 'string') return;
    if (msg.t === 'pong') this.lagMs = Date.now() - this.pingSentAt;
    if (msg.t === 'ack') this.pending.delete(Number((msg.d as { id?: unknown })?.id));
    if (msg.t === 'error') {
      const id = (msg.d as { id?: unknown })?.id;
      if (id !== undefined) this.pending.delete(Number(id));
    }
    if (this.opts.versioned && typeof msg.v === 'number') {
      if (msg.t === 'full') this.version = msg.v;
      else if (msg.v <= this.version) return; // already applied
      else if (this.version >= 0 && msg.v > this.version + 1) {
        // Missed events: reconnect from the last one applied; the server sends the rest.
        this.drop();
        return;
      } else this.version = msg.v;
    }
    const h = this.opts.handlers[msg.t];
    if (h) h(msg.d, msg);
    else this.opts.onUnhandled?.(msg);
  }

  private schedulePing(): void {
    this.pingTimer = setTimeout(() => {
      if (this.ws && this.state === 'open') {
        this.pingSentAt = Date.now();
        this.ws.send(JSON.stringify({ t: 'ping', d: {} }));
      }
      this.schedulePing();
    }, this.opts.pingMs);
  }

  private armDead(): void {
    if (this.deadTimer) clearTimeout(this.deadTimer);
    this.deadTimer = setTimeout(() => this.drop(), this.opts.deadMs);
  }

  private clearTimers(): void {
    for (const t of [this.reconnectTimer, this.pingTimer, this.deadTimer]) if (t) clearTimeout(t);
    this.reconnectTimer = this.pingTimer = this.deadTimer = null;
  }

  private setState(s: ConnState): void {
    if (this.state === s) return;
    this.state = s;
    this.opts.onState?.(s);
  }
}

/** `ws://host/path` or `wss://host/path` on the page's own origin. */
export function wsUrl(path: string, loc: { protocol: string; host: string } = location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${path}`;
}
