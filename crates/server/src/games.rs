//! HTTP handlers of games: friend invitations, game state, records and a player's games.

use std::collections::HashMap;

use axum::{
    extract::{Path, Query, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use serde::Deserialize;
use serde_json::{json, Value};
use ttakji_engine::Level;
use ttakji_game::{
    clock::{Clock, ClockConfig},
    AnyGame, Tags,
};
use ttakji_store::{
    now_millis, ClockSettings, Game, GameId, GameStatus, Mode, NewGame, PlayerId, Side, StoreError,
    UnixMillis, Variant,
};

use crate::{
    error::ApiError,
    round::{self, JoinError},
    session::{self, Guest},
    AppState,
};

/// Body of `POST /api/invitations`.
#[derive(Deserialize)]
pub struct InvitationBody {
    variant: String,
    /// A ranked game: both players must be signed in; accepting the link means agreeing.
    #[serde(default)]
    rated: bool,
}

/// The stored form of a time control.
pub fn clock_settings(config: &ClockConfig) -> ClockSettings {
    ClockSettings {
        main_ms: i64::try_from(config.main_ms).unwrap_or(i64::MAX),
        periods: i64::from(config.periods),
        period_ms: i64::try_from(config.period_ms).unwrap_or(i64::MAX),
    }
}

/// Body of `POST /api/games`.
#[derive(Deserialize)]
pub struct NewGameBody {
    variant: String,
    mode: String,
    level: Option<String>,
    side: Option<String>,
    /// Start from this position (FEN; PDN FEN for checkers) instead of the standard one.
    fen: Option<String>,
}

/// The longest start FEN accepted (the longest real one, Xiangqi's, is under 100 bytes).
const MAX_FEN_LEN: usize = 256;

/// `POST /api/games {"variant", "mode": "ai", "level", "side", "fen"?}`: a game against the
/// AI, no clock, playing at once (the AI thinks at once if it moves first), from the standard
/// start or from a position given as FEN. 201 `{"id"}`.
pub async fn create_game(
    State(state): State<AppState>,
    Guest(player): Guest,
    crate::http::JsonBody(body): crate::http::JsonBody<NewGameBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let variant = parse_variant(&body.variant)?;
    if body.mode != "ai" {
        return Err(ApiError::BadRequest(format!(
            "mode {:?}: only \"ai\" games are created here (friend games: POST /api/invitations; random opponents: the lobby socket)",
            body.mode
        )));
    }
    let level: Level = body
        .level
        .as_deref()
        .unwrap_or("normal")
        .parse()
        .map_err(|e: ttakji_engine::UnknownLevel| ApiError::BadRequest(e.to_string()))?;
    let side = match body.side.as_deref().unwrap_or("random") {
        "first" => Side::First,
        "second" => Side::Second,
        "random" => round::random_side(),
        other => {
            return Err(ApiError::BadRequest(format!(
                "side {other:?}: expected first, second or random"
            )))
        }
    };
    let initial_fen = match body.fen.as_deref().map(str::trim) {
        None | Some("") => AnyGame::new(variant).initial_fen(),
        Some(fen) => start_position(variant, fen)?,
    };
    let new = NewGame {
        variant,
        mode: Mode::Ai,
        ai_level: Some(level.name().to_owned()),
        first_player: (side == Side::First).then_some(player.id),
        second_player: (side == Side::Second).then_some(player.id),
        initial_fen,
        clock: None,
        clock_state: None,
        status: GameStatus::Playing,
        rematch_of: None,
        // AI games are never rated.
        rated: false,
    };
    let game = state.store.create_game(&new).await?;
    // Load the round now, so that an AI moving first starts thinking.
    state.rounds.get(&game.id).await?;
    tracing::info!(game = %game.id, player = %player.id, level = level.name(), "AI game created");
    Ok((StatusCode::CREATED, Json(json!({ "id": game.id.as_str() }))))
}

/// A start position given by a player: a valid FEN of `variant` with a move to play. Returns it
/// in our own normalised form (what the game record and PGN will show).
fn start_position(variant: Variant, fen: &str) -> Result<String, ApiError> {
    if fen.len() > MAX_FEN_LEN {
        return Err(ApiError::BadRequest(format!(
            "fen: longer than {MAX_FEN_LEN} bytes"
        )));
    }
    let game =
        AnyGame::from_fen(variant, fen).map_err(|e| ApiError::BadRequest(format!("fen: {e}")))?;
    if game.outcome().is_some() || game.legal_moves().is_empty() {
        return Err(ApiError::BadRequest(
            "fen: the game is already over in this position".to_owned(),
        ));
    }
    Ok(game.initial_fen())
}

fn parse_variant(name: &str) -> Result<Variant, ApiError> {
    name.parse::<Variant>()
        .map_err(|_| ApiError::BadRequest(format!("unknown variant {name:?}")))
}

/// `POST /api/invitations {"variant", "rated"?}`: a friend game with the creator seated on a random side,
/// and its 24-hour link.
pub async fn create_invitation(
    State(state): State<AppState>,
    Guest(player): Guest,
    crate::http::JsonBody(body): crate::http::JsonBody<InvitationBody>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let variant = parse_variant(&body.variant)?;
    let rated = body.rated;
    if rated && !player.signed_in() {
        return Err(ApiError::SignInRequired);
    }
    let side = round::random_side();
    let config = state.clock;
    let settings = clock_settings(&config);
    let clock = Clock::new(config);
    let new = NewGame {
        variant,
        mode: Mode::Friend,
        ai_level: None,
        first_player: (side == Side::First).then_some(player.id),
        second_player: (side == Side::Second).then_some(player.id),
        initial_fen: AnyGame::new(variant).initial_fen(),
        clock: Some(settings),
        clock_state: Some(clock.state(ttakji_game::clock::Timestamp(0)).encode()),
        status: GameStatus::Waiting,
        rematch_of: None,
        rated,
    };
    let game = state.store.create_game(&new).await?;
    let (token, invitation) = state
        .store
        .create_invitation(&game.id, player.id, now_millis())
        .await?;
    tracing::info!(game = %game.id, player = %player.id, "friend game created");
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "token": token.as_str(),
            "gameId": game.id.as_str(),
            "url": format!("/invite/{}", token.as_str()),
            "expiresAt": invitation.expires_at.0,
        })),
    ))
}

/// `POST /api/invitations/{token}/accept`: the friend takes the empty seat and the game
/// starts. 404 unknown, 410 expired, 409 taken (or the creator's own link).
pub async fn accept_invitation(
    State(state): State<AppState>,
    Guest(player): Guest,
    Path(token): Path<String>,
) -> Result<Json<Value>, ApiError> {
    if token.len() > 100 {
        return Err(ApiError::Store(StoreError::UnknownInvitation));
    }
    let invitation = state
        .store
        .invitation(&token)
        .await?
        .ok_or(ApiError::Store(StoreError::UnknownInvitation))?;
    if invitation.creator == player.id {
        return Err(ApiError::Conflict(
            "this is your own invitation: send the link to a friend".into(),
        ));
    }
    let game = invitation.game_id.clone();
    // Opening the link again after joining just leads back to the game.
    if invitation.consumed_by != Some(player.id) {
        // The round is loaded for the join anyway; it knows whether the game is rated, so
        // the game's row is read once (by the round), not twice.
        let handle = state
            .rounds
            .get(&game)
            .await?
            .ok_or(ApiError::NotFound("game"))?;
        if handle.rated() && !player.signed_in() {
            return Err(ApiError::SignInRequired);
        }
        state
            .store
            .consume_invitation(&token, player.id, now_millis())
            .await?;
        handle.join(&player).await.map_err(|e| match e {
            JoinError::Store(e) => ApiError::Store(e),
            JoinError::Over => ApiError::Store(StoreError::ExpiredInvitation),
            other => ApiError::Conflict(other.to_string()),
        })?;
        tracing::info!(game = %game, player = %player.id, "friend joined");
    }
    Ok(Json(json!({ "gameId": game.as_str() })))
}

fn game_id(id: &str) -> Result<GameId, ApiError> {
    if GameId::is_well_formed(id) {
        Ok(GameId(id.to_owned()))
    } else {
        Err(ApiError::NotFound("game"))
    }
}

/// `GET /api/games/{id}`: the game state; `you` is the session's seat.
pub async fn game_state(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let id = game_id(&id)?;
    let viewer = session::player_from_headers(&state.store, &state.key, &headers)
        .await?
        .map(|p| p.id);
    let handle = state
        .rounds
        .get(&id)
        .await?
        .ok_or(ApiError::NotFound("game"))?;
    let value = handle
        .state(viewer)
        .await
        .map_err(|_| ApiError::Unavailable)?;
    Ok(Json(value))
}

/// `GET /api/games/{id}/record`: PGN (Makruk, Xiangqi) or PDN (checkers).
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    let row = state
        .store
        .game(&id)
        .await?
        .ok_or(ApiError::NotFound("game"))?;
    let game = round::replay(&*state.store, &row).await?;
    let [first, second] = round::names(&*state.store, &row).await?;
    let tags = Tags {
        event: Some(format!("Ttakji {} game", row.mode.as_str())),
        site: Some("Ttakji".into()),
        date: Some(pgn_date(row.created_at)),
        first: Some(first).filter(|n| !n.is_empty()),
        second: Some(second).filter(|n| !n.is_empty()),
        extra: vec![("GameId".into(), row.id.0.clone())],
    };
    let text = game.to_record(&tags);
    let ext = if row.variant == Variant::Checkers {
        "pdn"
    } else {
        "pgn"
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"ttakji-{}.{ext}\"", row.id),
            ),
        ],
        text,
    )
        .into_response())
}

/// `YYYY.MM.DD` of a Unix-millisecond time (UTC).
fn pgn_date(at: UnixMillis) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let days = at.0.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Query of `GET /api/players/{id}/games`.
#[derive(Deserialize)]
pub struct GamesQuery {
    before: Option<i64>,
}

/// `GET /api/players/{id}/games?before=`: finished games, newest first (50 a page).
pub async fn player_games(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Value>, ApiError> {
    let player = PlayerId(id);
    if state.store.player(player).await?.is_none() {
        return Err(ApiError::NotFound("player"));
    }
    let games = state
        .store
        .finished_games(player, 50, q.before.map(UnixMillis))
        .await?;
    let mut names: HashMap<PlayerId, String> = HashMap::new();
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        out.push(summary(&state, &g, &mut names).await?);
    }
    Ok(Json(json!({ "games": out })))
}

async fn summary(
    state: &AppState,
    g: &Game,
    names: &mut HashMap<PlayerId, String>,
) -> Result<Value, ApiError> {
    let seat = |id: Option<PlayerId>| {
        let store = state.store.clone();
        let cached = id.and_then(|id| names.get(&id).cloned());
        async move {
            match (id, cached) {
                (None, _) => Ok::<_, StoreError>((None, Value::Null)),
                (Some(id), Some(n)) => {
                    Ok((Some((id, n.clone())), json!({ "id": id.0, "name": n })))
                }
                (Some(id), None) => {
                    let n = store
                        .player(id)
                        .await?
                        .map_or_else(|| "?".to_owned(), |p| p.nickname);
                    Ok((Some((id, n.clone())), json!({ "id": id.0, "name": n })))
                }
            }
        }
    };
    let (a, first) = seat(g.first_player).await?;
    let (b, second) = seat(g.second_player).await?;
    for (id, n) in [a, b].into_iter().flatten() {
        names.insert(id, n);
    }
    Ok(json!({
        "id": g.id.as_str(),
        "variant": g.variant.name(),
        "mode": g.mode.as_str(),
        "players": { "first": first, "second": second },
        "result": g.result,
        "reason": g.reason,
        "createdAt": g.created_at.0,
        "finishedAt": g.finished_at.map(|t| t.0),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(pgn_date(UnixMillis(0)), "1970.01.01");
        assert_eq!(pgn_date(UnixMillis(1_709_251_199_000)), "2024.02.29");
        assert_eq!(pgn_date(UnixMillis(1_798_761_600_000)), "2027.01.01");
    }
}
