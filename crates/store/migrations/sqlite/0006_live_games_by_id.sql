-- The index of the games not over is keyed by their id: the moves' writer checks that a
-- move's game is live with one look into this small index (on SQLite, `INDEXED BY`), where the
-- primary key's index holds every game ever played and the status then had to be read from
-- the game's row. Listing the unfinished games (recovery at start) reads it whole, as before.
-- Keep in step with the other backend's 0006_live_games_by_id.sql.
DROP INDEX games_unfinished;
CREATE INDEX games_unfinished ON games (id) WHERE status IN ('waiting', 'playing');
