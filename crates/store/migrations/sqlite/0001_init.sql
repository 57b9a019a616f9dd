-- Ttakji schema, SQLite dialect. Keep in step with ../postgres/0001_init.sql: the same tables,
-- columns and meanings; only the id column and the integer/text type names differ.
-- Times are Unix milliseconds (INTEGER in SQLite, BIGINT in PostgreSQL).

CREATE TABLE players (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    nickname    TEXT    NOT NULL,
    google_sub  TEXT    UNIQUE,
    email       TEXT,
    created_at  INTEGER NOT NULL
);

CREATE TABLE games (
    id              TEXT    PRIMARY KEY,
    variant         TEXT    NOT NULL,
    mode            TEXT    NOT NULL CHECK (mode IN ('ai', 'friend', 'random')),
    ai_level        TEXT,
    first_player    INTEGER REFERENCES players (id),
    second_player   INTEGER REFERENCES players (id),
    initial_fen     TEXT    NOT NULL,
    clock_main_ms   INTEGER,
    clock_periods   INTEGER,
    clock_period_ms INTEGER,
    clock_state     TEXT,
    status          TEXT    NOT NULL CHECK (status IN ('waiting', 'playing', 'finished', 'aborted')),
    result          TEXT,
    reason          TEXT,
    rematch_of      TEXT    REFERENCES games (id),
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER
);

CREATE INDEX games_unfinished ON games (status) WHERE status IN ('waiting', 'playing');
CREATE INDEX games_first_player ON games (first_player, finished_at);
CREATE INDEX games_second_player ON games (second_player, finished_at);

CREATE TABLE moves (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    ply         INTEGER NOT NULL,
    mv          TEXT    NOT NULL,
    spent_ms    INTEGER,
    clock_after TEXT,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE invitations (
    token_hash  TEXT    PRIMARY KEY,
    game_id     TEXT    NOT NULL REFERENCES games (id),
    creator     INTEGER NOT NULL REFERENCES players (id),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    consumed_at INTEGER,
    consumed_by INTEGER REFERENCES players (id)
);

CREATE INDEX invitations_game ON invitations (game_id);
