import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n, setLanguage, t } from '../i18n';
import type { GameState, Reason } from '../net/protocol';
import { counterLines, moveRows, moveSaid, opponentGone, playerName, resultText, turnText, waitingForFriend } from './gameInfo';

function state(over: Partial<GameState> = {}): GameState {
  return {
    id: 'g1',
    variant: 'makruk',
    mode: 'friend',
    players: {
      first: { id: 1, name: 'Somchai', ai: null, connected: true },
      second: { id: 2, name: 'Mei', ai: null, connected: true },
    },
    you: 'first',
    initialFen: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1',
    fen: 'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1',
    turn: 'first',
    ply: 0,
    moves: [],
    legal: [],
    check: false,
    counters: null,
    clock: null,
    offers: { draw: null, takeback: null, rematch: null },
    result: null,
    ...over,
  };
}

beforeAll(async () => {
  await initI18n('en');
});

describe('game words', () => {
  it('names the computer by its level', () => {
    const g = state({ players: { ...state().players, second: { id: null, name: 'AI', ai: 'hard', connected: true } } });
    expect(playerName(g, 'second')).toBe('Computer (Hard)');
  });
  it('says whose turn it is', () => {
    expect(turnText(state())).toBe('Your turn');
    expect(turnText(state({ turn: 'second' }))).toBe('Mei to move');
    expect(turnText(state({ you: null, turn: 'second' }))).toBe('Black to move');
  });
  it('says the result with its reason in words', () => {
    expect(resultText(state({ result: { result: '1-0', winner: 'first', reason: 'checkmate' } }))).toEqual({
      title: 'You won',
      reason: 'by checkmate',
    });
    expect(resultText(state({ you: null, variant: 'xiangqi', result: { result: '0-1', winner: 'second', reason: 'timeout' } }))).toEqual({
      title: 'Black wins',
      reason: 'on time',
    });
    expect(resultText(state({ result: { result: '1/2-1/2', winner: null, reason: 'piece-counting' } }))?.title).toBe('Draw');
  });
  it('shows the Makruk count and a near move limit', () => {
    const g = state({
      counters: {
        makruk: { kind: 'piece', side: 'second', count: 13, limit: 16, movesLeft: 3 },
        pliesBeforeMoveLimit: 12,
      },
    });
    expect(counterLines(g)).toEqual([
      'Piece count: 13 of 16',
      'Counting: Black',
      '3 moves left',
      'Draw by the move limit after 12 more moves (both players’ moves count)',
    ]);
    expect(counterLines(state({ counters: { pliesBeforeMoveLimit: 300 } }))).toEqual([]);
  });
  it('uses plural rules in Hindi', async () => {
    await setLanguage('hi', false);
    const g = state({ counters: { makruk: { kind: 'board', side: 'first', count: 63, limit: 64, movesLeft: 1 } } });
    expect(counterLines(g)[2]).toBe('1 चाल बाकी');
    await setLanguage('en', false);
  });
  it('knows when a friend has not joined and when the opponent left', () => {
    expect(waitingForFriend(state({ players: { ...state().players, second: { id: null, name: '', ai: null, connected: false } } }))).toBe(true);
    expect(waitingForFriend(state())).toBe(false);
    expect(opponentGone(state({ players: { ...state().players, second: { ...state().players.second, connected: false } } }))).toBe('Mei');
    expect(opponentGone(state())).toBeNull();
  });
  it('numbers the move list', () => {
    const rows = moveRows([
      { uci: 'e3e4', san: 'e4' },
      { uci: 'e6e5', san: 'e5' },
      { uci: 'g1f3', san: 'Nf3' },
    ]);
    expect(rows.map((r) => [r.n, r.first?.san, r.second?.san])).toEqual([
      [1, 'e4', 'e5'],
      [2, 'Nf3', undefined],
    ]);
  });
  it('says the last move in words for screen readers', () => {
    const makruk = state({
      moves: [{ uci: 'e3e4', san: 'e4' }, { uci: 'e6e5', san: 'e5' }],
      fen: 'rnsmksnr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 3',
    });
    expect(moveSaid(makruk)).toBe('Black Bia, e6 to e5');
    const jump = state({ variant: 'checkers', moves: [{ uci: '9x18x27', san: '9x18x27' }], fen: 'W:W30:B27' });
    expect(moveSaid(jump)).toBe('Black man, 9 takes on 18, 27');
    const check = state({ variant: 'xiangqi', moves: [{ uci: 'a1a10', san: 'R1+9' }], fen: 'R3k4/9/9/9/9/9/9/9/9/3K5 b', check: true });
    expect(moveSaid(check)).toBe('Red Chariot, a1 to a10. Check!');
    expect(moveSaid(state())).toBe('');
  });
});

const reasons: Reason[] = [
  'checkmate',
  'checkmate-by-counting-side',
  'stalemate',
  'no-moves',
  'no-pieces',
  'repetition',
  'perpetual-check',
  'board-counting',
  'piece-counting',
  'bare-khuns',
  'no-attackers',
  'forty-move-rule',
  'ply-limit',
  'resignation',
  'timeout',
  'agreement',
  'aborted',
];

describe('every result reason in every language', () => {
  for (const lang of ['en', 'hi', 'th', 'zh'] as const) {
    it(`${lang}: has words for each reason of protocol v1`, async () => {
      await setLanguage(lang, false);
      const seen = new Set<string>();
      for (const reason of reasons) {
        const words = t(`result.reason.${reason}`);
        expect(words, reason).not.toContain('result.reason');
        expect(words.length, reason).toBeGreaterThan(1);
        seen.add(words);
      }
      // No two reasons share their words.
      expect(seen.size).toBe(reasons.length);
      await setLanguage('en', false);
    });
  }
});
