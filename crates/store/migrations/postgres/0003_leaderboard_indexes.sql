-- Leaderboard and profile indexes, PostgreSQL dialect. Keep in step with
-- ../sqlite/0003_leaderboard_indexes.sql. Measured with 100 000 players and 1 000 000 games:
-- see docs/benchmarks.md "## Leaderboard".

-- The own rank counts the qualifying players above one: with `last_played_at` in the index the
-- count is an index-only scan (no heap visit per player), and `rating >= x` bounds its range.
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC, player_id)
    INCLUDE (last_played_at) WHERE games >= 10;

-- The few deleted accounts, so that the count leaves them out with an anti-join instead of
-- reading every player.
CREATE INDEX players_deleted ON players (id) WHERE deleted_at IS NOT NULL;

-- A profile reads a player's newest rating changes in every game: in index order, the first
-- 200 only, however many games the player has.
DROP INDEX rating_history_player;
CREATE INDEX rating_history_player ON rating_history (player_id, at DESC);
