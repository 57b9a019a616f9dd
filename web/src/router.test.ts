import { describe, expect, it } from 'vitest';
import { validNickname } from './net/api';
import { parseRoute, routePath } from './router';

describe('routes', () => {
  it('parses every page', () => {
    expect(parseRoute('/')).toEqual({ page: 'home' });
    expect(parseRoute('/', '?variant=xiangqi')).toEqual({ page: 'home', variant: 'xiangqi' });
    expect(parseRoute('/game/g_8fK2')).toEqual({ page: 'game', id: 'g_8fK2' });
    expect(parseRoute('/invite/abc/')).toEqual({ page: 'invite', token: 'abc' });
    expect(parseRoute('/rules/checkers')).toEqual({ page: 'rules', variant: 'checkers' });
    expect(parseRoute('/rules/janggi')).toEqual({ page: 'notFound' });
    expect(parseRoute('/game/a/b')).toEqual({ page: 'notFound' });
    expect(parseRoute('/leaderboard/xiangqi')).toEqual({ page: 'leaderboard', variant: 'xiangqi' });
    expect(parseRoute('/leaderboard/chess')).toEqual({ page: 'notFound' });
    expect(parseRoute('/player/42')).toEqual({ page: 'player', id: 42 });
    expect(parseRoute('/player/0')).toEqual({ page: 'notFound' });
    expect(parseRoute('/player/x1')).toEqual({ page: 'notFound' });
  });
  it('round-trips', () => {
    for (const p of ['/', '/game/g_1', '/invite/t', '/rules/makruk', '/leaderboard/checkers', '/player/7']) expect(routePath(parseRoute(p))).toBe(p);
  });
});

describe('nicknames', () => {
  it('accepts 2–20 letters or digits of any script, _ and -', () => {
    expect(validNickname('Somchai')).toBe(true);
    expect(validNickname(' สมชาย ')).toBe(true);
    expect(validNickname('राहुल_7')).toBe(true);
    expect(validNickname('小明')).toBe(true);
    expect(validNickname('a')).toBe(false);
    expect(validNickname('with space')).toBe(false);
    expect(validNickname('x'.repeat(21))).toBe(false);
  });
});
