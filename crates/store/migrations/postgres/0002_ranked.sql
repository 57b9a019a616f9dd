-- Ranked play, PostgreSQL dialect. Keep in step with ../sqlite/0002_ranked.sql.
-- A rated game moves both players' Elo; the rating change is written in the same transaction
-- as the game's result (see rating.rs), and rating_history's key makes a second application
-- for the same game impossible.

-- AI games are never rated.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE CHECK (NOT rated OR mode <> 'ai');

-- When a player deleted their account: the nickname is then an anonymous label and the
-- Google subject and e-mail are gone; the games stay, anonymised.
ALTER TABLE players ADD COLUMN deleted_at BIGINT;

-- One Elo rating per player and game (variant).
CREATE TABLE ratings (
    player_id       BIGINT NOT NULL REFERENCES players (id),
    variant         TEXT    NOT NULL,
    rating          BIGINT NOT NULL,
    games           BIGINT NOT NULL,
    last_played_at  BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);

-- The leaderboard reads players with at least 10 rated games, best first; the partial index
-- holds just them, in the order shown.
CREATE INDEX ratings_leaderboard ON ratings (variant, rating DESC, player_id) WHERE games >= 10;

-- Every rating change, one row per player per rated game.
CREATE TABLE rating_history (
    game_id     TEXT    NOT NULL REFERENCES games (id),
    player_id   BIGINT NOT NULL REFERENCES players (id),
    variant     TEXT    NOT NULL,
    rating_before BIGINT NOT NULL,
    rating_after  BIGINT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE INDEX rating_history_player ON rating_history (player_id, variant, at);
