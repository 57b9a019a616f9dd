-- The moves of games being played, in the order they were stored. Keep in step with the other
-- backend's 0005_live_moves.sql.
--
-- A live game's moves are appended here, to the end of one B-tree: a group commit of moves
-- from many games writes one or two pages, where the primary key of `moves` (game, ply) put
-- every game's move on a page of its own (one page written per move, and as many copied by
-- every checkpoint). When a game ends, its moves are copied into `moves` and deleted from here
-- in the transaction that stores the result; so a live game's moves are all here and a
-- finished game's all in `moves`. The store keeps each live game's `seq`s in memory (read back
-- from this table when it opens), which is how it finds them without an index on `game_id`.
-- No foreign key: the insert checks that the game is live.
CREATE TABLE live_moves (
    seq         BIGSERIAL PRIMARY KEY,
    game_id     TEXT    NOT NULL,
    ply         BIGINT  NOT NULL,
    mv          TEXT    NOT NULL,
    spent_ms    BIGINT,
    clock_after TEXT,
    created_at  BIGINT  NOT NULL
);

-- The moves of the games that are not over move here.
INSERT INTO live_moves (game_id, ply, mv, spent_ms, clock_after, created_at)
SELECT m.game_id, m.ply, m.mv, m.spent_ms, m.clock_after, m.created_at
FROM moves m JOIN games g ON g.id = m.game_id
WHERE g.status IN ('waiting', 'playing')
ORDER BY m.game_id, m.ply;

DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE status IN ('waiting', 'playing'));
