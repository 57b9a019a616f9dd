-- A move no longer rewrites its game's row: the clock after a move is the move's own
-- `clock_after`. `games.clock_state` is the clock as of ply `clock_ply` (a save at shutdown,
-- the end of the game, or the start when NULL); a stored move with a higher ply is newer.
-- Keep in step with the other backend's 0004_clock_ply.sql.
ALTER TABLE games ADD COLUMN clock_ply BIGINT;

-- Until now every move rewrote `clock_state`: it is as of the game's last move.
UPDATE games SET clock_ply = (SELECT MAX(ply) FROM moves WHERE moves.game_id = games.id);
