//! The store's frequent statements on a SQLite file, run on the moves' writer connection
//! ([`super::batch::MoveWriter::call`]): a player's and a game's reads, a game's creation,
//! start and end, and invitations. The rest stays on the sqlx pool.
//!
//! Each function is the pool's version of the same method, SQL included (the callers pass
//! the text they would give sqlx; the invitation read, which using an invitation needs too,
//! writes its own): sqlx's `$n` parameters are SQLite's `?n` ([`numbered`]).
//! Going through the writer saves, per statement, sqlx's hand-off to a connection thread and
//! back for each row, the read of pages that the writer's last commit made another
//! connection drop from its cache, and the wait for the writer's lock.

use rusqlite::{params, params_from_iter, Connection, ErrorCode, OptionalExtension, Row};
use ttakji_rules::Variant;

use crate::{
    model::hash_token,
    rating::{self, Score},
    ClockSettings, Game, GameEnd, GameId, GameStatus, Invitation, NewGame, Player, PlayerId,
    Result, StoreError, UnixMillis,
};
use std::str::FromStr;

use super::INVITATION_COLUMNS;

/// sqlx's SQL for SQLite as rusqlite takes it: `$n` becomes `?n` (the same numbered
/// parameter; the store's statements have no `$` anywhere else).
fn numbered(sql: &str) -> String {
    sql.replace('$', "?")
}

/// A rusqlite row read with the same `try_get(name)` as a sqlx row, so that the row readers
/// of `sql.rs` serve both.
struct Cols<'a, 'b>(&'a Row<'b>);

impl Cols<'_, '_> {
    fn try_get<T: rusqlite::types::FromSql>(&self, name: &str) -> rusqlite::Result<T> {
        self.0.get(name)
    }
}

fn read_game(row: &Row<'_>) -> Result<Game> {
    Ok(game_from_row!(Cols(row)))
}

fn read_player(row: &Row<'_>) -> Result<Player> {
    Ok(player_from_row!(Cols(row)))
}

fn read_invitation(row: &Row<'_>) -> Result<Invitation> {
    Ok(invitation_from_row!(Cols(row)))
}

/// Whether an error is a unique or primary key violation (the moves' writer asks too).
pub(super) fn is_unique_violation(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(ErrorCode::ConstraintViolation)
        && matches!(
            e.sqlite_error().map(|s| s.extended_code),
            Some(
                rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    | rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            )
        )
}

/// `(?, ?, …)` for `… IN `, one parameter per value.
fn in_list(n: usize) -> String {
    let mut list = String::with_capacity(2 + 3 * n);
    list.push('(');
    for i in 0..n {
        list.push_str(if i == 0 { "?" } else { ", ?" });
    }
    list.push(')');
    list
}

/// A player by id (`sql` selects `PLAYER_COLUMNS` by `$1`).
pub(super) fn player(conn: &mut Connection, sql: &str, id: PlayerId) -> Result<Option<Player>> {
    let mut select = conn.prepare_cached(&numbered(sql))?;
    let mut rows = select.query(params![id.0])?;
    rows.next()?.map(read_player).transpose()
}

/// A game by id and its row's `clock_ply` (`sql` selects `GAME_SELECT_COLUMNS` by `$1`).
pub(super) fn game(
    conn: &mut Connection,
    sql: &str,
    id: &GameId,
) -> Result<Option<(Game, Option<i64>)>> {
    let mut select = conn.prepare_cached(&numbered(sql))?;
    let mut rows = select.query(params![id.as_str()])?;
    match rows.next()? {
        Some(row) => Ok(Some((read_game(row)?, row.get("clock_ply")?))),
        None => Ok(None),
    }
}

/// A game's status; [`StoreError::NotFound`] if there is no such game.
pub(super) fn game_status(conn: &mut Connection, id: &GameId) -> Result<GameStatus> {
    let status: Option<String> = conn
        .prepare_cached("SELECT status FROM games WHERE id = ?1")?
        .query_row(params![id.as_str()], |row| row.get(0))
        .optional()?;
    status.ok_or(StoreError::NotFound("game"))?.parse()
}

/// Inserts a new game under a fresh random id (`sql` is the pool's insert, `RETURNING`
/// `GAME_COLUMNS`).
pub(super) fn create_game(
    conn: &mut Connection,
    sql: &str,
    game: &NewGame,
    now: UnixMillis,
) -> Result<Game> {
    let mut insert = conn.prepare_cached(&numbered(sql))?;
    // A clash of random ids is all but impossible; try a few before giving up.
    for _ in 0..4 {
        let id = GameId::random();
        let mut rows = match insert.query(params![
            id.as_str(),
            game.variant.name(),
            game.mode.as_str(),
            game.ai_level,
            game.first_player.map(|p| p.0),
            game.second_player.map(|p| p.0),
            game.initial_fen,
            game.clock.map(|c| c.main_ms),
            game.clock.map(|c| c.periods),
            game.clock.map(|c| c.period_ms),
            game.clock_state,
            game.status.as_str(),
            game.rematch_of.as_ref().map(GameId::as_str),
            now.0,
            game.rated,
        ]) {
            Ok(rows) => rows,
            Err(e) if is_unique_violation(&e) => continue,
            Err(e) => return Err(e.into()),
        };
        match rows.next() {
            Ok(Some(row)) => return read_game(row),
            Ok(None) => return Err(StoreError::Corrupt("INSERT … RETURNING gave no row".into())),
            Err(e) if is_unique_violation(&e) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(StoreError::Conflict("no free game id"))
}

/// Starts a waiting game (`sql` is the pool's update, parameters `$1` player, `$2` clock,
/// `$3` game, `$4` the live game's last ply).
pub(super) fn start_game(
    conn: &mut Connection,
    sql: &str,
    id: &GameId,
    player: PlayerId,
    clock_state: Option<&str>,
    last_ply: Option<i64>,
) -> Result<()> {
    let changed = conn.prepare_cached(&numbered(sql))?.execute(params![
        player.0,
        clock_state,
        id.as_str(),
        last_ply
    ])?;
    if changed == 1 {
        return Ok(());
    }
    game_status(conn, id)?;
    Err(StoreError::Conflict("seat taken or game not waiting"))
}

/// Ends a game as `Store::finish_game` says: its live moves (rows `seqs`) go into `moves`,
/// the result is written and a rated game's ratings updated, in one transaction. `update`
/// is the pool's update of the game (`RETURNING rated, variant, first_player,
/// second_player`). `Ok(false)` if the game was over already: nothing changed.
pub(super) fn finish_game(
    conn: &mut Connection,
    update: &str,
    id: &GameId,
    end: &GameEnd,
    seqs: &[i64],
) -> Result<bool> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if !seqs.is_empty() {
        // The IN lists differ in length from game to game: prepared once each, not cached.
        let list = in_list(seqs.len());
        tx.execute(
            &format!(
                "INSERT INTO moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
                 SELECT game_id, ply, mv, spent_ms, clock_after, created_at \
                 FROM live_moves WHERE seq IN {list} ORDER BY ply"
            ),
            params_from_iter(seqs),
        )?;
        tx.execute(
            &format!("DELETE FROM live_moves WHERE seq IN {list}"),
            params_from_iter(seqs),
        )?;
    }
    let ended = tx
        .prepare_cached(&numbered(update))?
        .query_row(
            params![
                end.status.as_str(),
                end.result,
                end.reason,
                end.clock_state,
                end.at.0,
                id.as_str()
            ],
            |row| {
                Ok((
                    row.get::<_, bool>("rated")?,
                    row.get::<_, String>("variant")?,
                    row.get::<_, Option<i64>>("first_player")?,
                    row.get::<_, Option<i64>>("second_player")?,
                ))
            },
        )
        .optional()?;
    // Dropping `tx` rolls the moves' copy back.
    let Some((rated, variant, first, second)) = ended else {
        return Ok(false);
    };
    let scores = end.result.as_deref().and_then(Score::from_result);
    if let (true, GameStatus::Finished, Some((a, b)), Some(first), Some(second)) =
        (rated, end.status, scores, first, second)
    {
        let players = [(first, a), (second, b)];
        let mut current = [(rating::INITIAL, 0i64); 2];
        for (i, &(player, _)) in players.iter().enumerate() {
            tx.prepare_cached(
                "INSERT INTO ratings (player_id, variant, rating, games, last_played_at) \
                 VALUES (?1, ?2, ?3, 0, ?4) ON CONFLICT (player_id, variant) DO NOTHING",
            )?
            .execute(params![player, variant, rating::INITIAL, end.at.0])?;
            current[i] = tx
                .prepare_cached(
                    "SELECT rating, games FROM ratings WHERE player_id = ?1 AND variant = ?2",
                )?
                .query_row(params![player, variant], |row| {
                    Ok((row.get("rating")?, row.get("games")?))
                })?;
        }
        for i in 0..2 {
            let (rating, games) = current[i];
            let opponent = current[1 - i].0;
            let after = rating::update(rating, games, opponent, players[i].1);
            tx.prepare_cached(
                "UPDATE ratings SET rating = ?1, games = games + 1, last_played_at = ?2 \
                 WHERE player_id = ?3 AND variant = ?4",
            )?
            .execute(params![after, end.at.0, players[i].0, variant])?;
            tx.prepare_cached(
                "INSERT INTO rating_history \
                 (game_id, player_id, variant, rating_before, rating_after, at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                id.as_str(),
                players[i].0,
                variant,
                rating,
                after,
                end.at.0
            ])?;
        }
    }
    tx.commit()?;
    Ok(true)
}

/// Inserts an invitation (`sql` is the pool's insert, `RETURNING` `INVITATION_COLUMNS`).
pub(super) fn create_invitation(
    conn: &mut Connection,
    sql: &str,
    token: &str,
    game: &GameId,
    creator: PlayerId,
    now: UnixMillis,
    expires: UnixMillis,
) -> Result<Invitation> {
    let mut insert = conn.prepare_cached(&numbered(sql))?;
    let mut rows = insert.query(params![
        hash_token(token),
        game.as_str(),
        creator.0,
        now.0,
        expires.0
    ])?;
    match rows.next()? {
        Some(row) => read_invitation(row),
        None => Err(StoreError::Corrupt("INSERT … RETURNING gave no row".into())),
    }
}

/// The invitation behind a token.
pub(super) fn invitation(conn: &mut Connection, token: &str) -> Result<Option<Invitation>> {
    let mut select = conn.prepare_cached(&format!(
        "SELECT {INVITATION_COLUMNS} FROM invitations WHERE token_hash = ?1"
    ))?;
    let mut rows = select.query(params![hash_token(token)])?;
    rows.next()?.map(read_invitation).transpose()
}

/// Uses an invitation (`sql` is the pool's conditional update: `$1` now, `$2` by, `$3` the
/// token's hash), or says why not.
pub(super) fn consume_invitation(
    conn: &mut Connection,
    sql: &str,
    token: &str,
    by: PlayerId,
    now: UnixMillis,
) -> Result<Invitation> {
    let used = {
        let mut update = conn.prepare_cached(&numbered(sql))?;
        let mut rows = update.query(params![now.0, by.0, hash_token(token)])?;
        rows.next()?.map(read_invitation).transpose()?
    };
    if let Some(invitation) = used {
        return Ok(invitation);
    }
    match invitation(conn, token)? {
        None => Err(StoreError::UnknownInvitation),
        Some(i) if i.consumed_at.is_some() => Err(StoreError::ConsumedInvitation),
        Some(_) => Err(StoreError::ExpiredInvitation),
    }
}
