//! HTTP handlers of ranked play: leaderboards per game and player profiles (ratings and
//! their history). The ratings themselves move in the store, with each rated result.

use axum::{
    extract::{Path, State},
    http::HeaderMap,
    Json,
};
use serde_json::{json, Value};
use ttakji_store::{now_millis, PlayerId, UnixMillis, Variant, LEADERBOARD_MIN_GAMES};

use crate::{error::ApiError, session, AppState};

/// Lines of a leaderboard.
pub const LEADERBOARD_SIZE: u32 = 100;
/// A player is on a leaderboard only if their last rated game in it ended within this many
/// days: ratings of players who stopped do not hold places for ever.
pub const ACTIVE_DAYS: i64 = 30;
/// Rating changes shown on a profile.
pub const HISTORY_SIZE: u32 = 200;

/// The earliest last game that keeps a player on the leaderboards.
pub fn active_since(now: UnixMillis) -> UnixMillis {
    UnixMillis(now.0.saturating_sub(ACTIVE_DAYS * 24 * 3600 * 1000))
}

fn parse_variant(name: &str) -> Result<Variant, ApiError> {
    name.parse::<Variant>()
        .map_err(|_| ApiError::NotFound("variant"))
}

/// `GET /api/leaderboard/{variant}`: the best 100, and the session's own line.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let variant = parse_variant(&variant)?;
    let since = active_since(now_millis());
    let top = state
        .store
        .leaderboard(variant, since, LEADERBOARD_SIZE)
        .await?;
    let viewer = session::player_from_headers(&state.store, &state.key, &headers).await?;
    let you = match viewer {
        Some(p) => state
            .store
            .leaderboard_entry(p.id, variant, since)
            .await?
            .map(|e| json!({ "rank": e.rank, "rating": e.rating, "games": e.games })),
        None => None,
    };
    let lines: Vec<Value> = top
        .into_iter()
        .map(|e| {
            json!({
                "rank": e.rank,
                "id": e.player.0,
                "name": e.nickname,
                "rating": e.rating,
                "games": e.games,
            })
        })
        .collect();
    Ok(Json(json!({
        "variant": variant.name(),
        "minGames": LEADERBOARD_MIN_GAMES,
        "activeDays": ACTIVE_DAYS,
        "top": lines,
        "you": you,
    })))
}

/// `GET /api/players/{id}/profile`: name, ratings per game (with leaderboard rank) and the
/// rating history, newest first. Recent games are at `/api/players/{id}/games`.
pub async fn profile(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Value>, ApiError> {
    let id = PlayerId(id);
    let player = state
        .store
        .player(id)
        .await?
        .ok_or(ApiError::NotFound("player"))?;
    let since = active_since(now_millis());
    let mut ratings = Vec::new();
    for r in state.store.ratings(id).await? {
        let rank = state
            .store
            .leaderboard_entry(id, r.variant, since)
            .await?
            .map(|e| e.rank);
        ratings.push(json!({
            "variant": r.variant.name(),
            "rating": r.rating,
            "games": r.games,
            "rank": rank,
        }));
    }
    let history: Vec<Value> = state
        .store
        .rating_history(id, HISTORY_SIZE)
        .await?
        .into_iter()
        .map(|c| {
            json!({
                "gameId": c.game_id.as_str(),
                "variant": c.variant.name(),
                "before": c.before,
                "after": c.after,
                "at": c.at.0,
            })
        })
        .collect();
    Ok(Json(json!({
        "id": player.id.0,
        "name": player.nickname,
        "signedIn": player.signed_in(),
        "deleted": player.deleted_at.is_some(),
        "ratings": ratings,
        "history": history,
    })))
}
