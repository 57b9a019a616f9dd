//! Wire types of the client–server protocol v1 (docs/protocol.md), nothing else: no logic.

export type VariantKey = 'makruk' | 'xiangqi' | 'checkers';
export type Side = 'first' | 'second';
export type Mode = 'ai' | 'friend' | 'random';
export type Level = 'easy' | 'normal' | 'hard';

export interface Player {
  id: number | null;
  name: string;
  ai: Level | null;
  connected: boolean;
}

export interface ClockSide {
  /** Main time left. */
  mainMs: number;
  /** Byo-yomi periods left, the running one included. */
  periods: number;
  /** Time left in the current period (a full period when none has started). */
  periodMs: number;
}

export interface Clock {
  first: ClockSide;
  second: ClockSide;
  running: Side | null;
}

export interface MakrukCount {
  kind: 'board' | 'piece';
  side: Side;
  count: number;
  limit: number;
  movesLeft: number;
}

export interface Counters {
  makruk?: MakrukCount | null;
  canStartCount?: boolean;
  canStopCount?: boolean;
  pliesBeforeMoveLimit?: number | null;
}

export type OfferKind = 'draw' | 'takeback' | 'rematch';

export type Reason =
  | 'checkmate'
  | 'checkmate-by-counting-side'
  | 'stalemate'
  | 'no-moves'
  | 'no-pieces'
  | 'repetition'
  | 'perpetual-check'
  | 'board-counting'
  | 'piece-counting'
  | 'bare-khuns'
  | 'no-attackers'
  | 'forty-move-rule'
  | 'ply-limit'
  | 'resignation'
  | 'timeout'
  | 'agreement'
  | 'aborted';

export interface Result {
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  winner: Side | null;
  reason: Reason;
}

export interface PlayedMove {
  uci: string;
  san: string;
}

export interface GameState {
  id: string;
  variant: VariantKey;
  mode: Mode;
  level?: Level | null;
  players: { first: Player; second: Player };
  you: Side | null;
  initialFen: string;
  fen: string;
  turn: Side;
  ply: number;
  moves: PlayedMove[];
  legal: string[];
  check: boolean;
  counters?: Counters | null;
  clock: Clock | null;
  offers: { draw: Side | null; takeback: Side | null; rematch: Side | null };
  result: Result | null;
  /** waiting (for the friend), playing, finished or aborted. */
  status?: 'waiting' | 'playing' | 'finished' | 'aborted';
  /** Once both agreed to a rematch: the new game's id. */
  rematch?: string | null;
  /** A ranked game: the result moves both players' ratings. */
  rated?: boolean;
  /** After a ranked game: each side's rating before and after it. */
  ratingChanges?: { first: RatingChange | null; second: RatingChange | null } | null;
}

export interface RatingChange {
  before: number;
  after: number;
}

export interface MoveEvent {
  uci: string;
  san: string;
  ply: number;
  fen: string;
  by: Side;
  count?: 'start' | 'stop';
  /**
   * The state after the move, without its `moves` list (append this move to the known ones)
   * and without `you` (the event is the same for every connection; `you` came with `full`).
   */
  state: Omit<GameState, 'moves' | 'you'> & { moves?: PlayedMove[]; you?: Side | null };
}

export interface OfferEvent {
  kind: OfferKind;
  by: Side | null;
}

export interface ErrorEvent {
  error: string;
  message: string;
  id?: number | string;
}

/** A message on either socket: `{t, d, v}`; `v` only on events that change the game. */
export interface Envelope<T = unknown> {
  t: string;
  d?: T;
  v?: number;
}

export interface Me {
  id: number;
  nickname: string;
  /** Signed in with an OpenID Connect (Google) account: may play ranked games. */
  signedIn?: boolean;
}

/** `GET /api/config`. */
export interface ServerConfig {
  ranked: { available: boolean; reason?: string; clientId?: string; dev: boolean };
}

export interface LeaderboardLine {
  rank: number;
  id: number;
  name: string;
  rating: number;
  games: number;
}

/** `GET /api/leaderboard/{variant}`. */
export interface Leaderboard {
  variant: VariantKey;
  minGames: number;
  activeDays: number;
  top: LeaderboardLine[];
  you: { rank: number; rating: number; games: number } | null;
}

/** `GET /api/players/{id}/profile`. */
export interface Profile {
  id: number;
  name: string;
  signedIn: boolean;
  deleted: boolean;
  ratings: Array<{ variant: VariantKey; rating: number; games: number; rank: number | null }>;
  history: Array<{ gameId: string; variant: VariantKey; before: number; after: number; at: number }>;
}

/** A line of `GET /api/players/{id}/games`. */
export interface GameSummary {
  id: string;
  variant: VariantKey;
  mode: Mode;
  players: { first: { id: number; name: string } | null; second: { id: number; name: string } | null };
  result: string | null;
  reason: string | null;
  createdAt: number;
  finishedAt: number | null;
}

export interface Invitation {
  token: string;
  gameId: string;
  url: string;
  expiresAt: string;
}

export const otherSide = (s: Side): Side => (s === 'first' ? 'second' : 'first');
