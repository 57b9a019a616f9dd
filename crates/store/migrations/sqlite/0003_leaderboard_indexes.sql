-- Leaderboard and profile indexes, SQLite dialect. Keep in step with
-- ../postgres/0003_leaderboard_indexes.sql (SQLite has no INCLUDE: `last_played_at` is the
-- index's last key column instead).

-- The own rank counts the qualifying players above one from the index alone.
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC, player_id, last_played_at)
    WHERE games >= 10;

-- The few deleted accounts, for the anti-join that leaves them off the boards.
CREATE INDEX players_deleted ON players (id) WHERE deleted_at IS NOT NULL;

-- A profile's newest rating changes, in index order.
DROP INDEX rating_history_player;
CREATE INDEX rating_history_player ON rating_history (player_id, at DESC);
