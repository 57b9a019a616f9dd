//! Every HTTP route in one place, and the JSON API handlers.

use std::path::Path;

use axum::{
    extract::{rejection::JsonRejection, DefaultBodyLimit, FromRequest, Request, State},
    http::{header, HeaderValue, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use axum_extra::extract::cookie::{Cookie, SignedCookieJar};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tower_http::{
    compression::CompressionLayer,
    services::{ServeDir, ServeFile},
    trace::TraceLayer,
};
use ttakji_store::Player;

use crate::{
    auth,
    error::ApiError,
    games, nickname, ranked,
    session::{self, Guest},
    ws, AppState,
};

/// Largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The whole application: API, WebSockets, then the web client's files (or a JSON 404).
pub fn router(state: AppState, static_dir: Option<&Path>) -> Router {
    let api = Router::new()
        .route("/health", get(health))
        .route(
            "/session",
            axum::routing::post(create_session).delete(end_session),
        )
        .route("/games", post(games::create_game))
        .route("/me", get(me).patch(rename).delete(auth::delete_account))
        .route("/invitations", post(games::create_invitation))
        .route(
            "/invitations/{token}/accept",
            post(games::accept_invitation),
        )
        .route("/games/{id}", get(games::game_state))
        .route("/games/{id}/record", get(games::record))
        .route("/players/{id}/games", get(games::player_games))
        // Ranked play.
        .route("/config", get(auth::config))
        .route("/auth/signin", post(auth::sign_in))
        .route("/dev-oidc/jwks", get(auth::dev_jwks))
        .route("/dev-oidc/token", post(auth::dev_token))
        .route("/leaderboard/{variant}", get(ranked::leaderboard))
        .route("/players/{id}/profile", get(ranked::profile))
        .fallback(api_not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    let app = Router::new()
        .nest("/api", api)
        .route("/ws/lobby", get(ws::lobby))
        .route("/ws/game/{id}", get(ws::game));
    let app = match static_dir {
        Some(dir) => app.fallback_service(web_client(dir)),
        None => app.fallback(api_not_found),
    };
    app.layer(
        TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
            tracing::info_span!("http", method = %req.method(), path = %req.uri().path())
        }),
    )
    .with_state(state)
}

/// `Cache-Control` of Vite's content-hashed files under `/assets/`: they never change.
pub const CACHE_IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of everything else (`index.html`, the SPA fallback): revalidate each time,
/// so that a new deployment is seen at once.
pub const CACHE_REVALIDATE: &str = "no-cache";

/// The built web client: hashed `/assets/*` (404 when missing, never the page), every other
/// path a file or `index.html`; gzip or brotli as the browser accepts.
fn web_client(dir: &Path) -> Router {
    let index = ServeFile::new(dir.join("index.html"));
    Router::new()
        .nest_service("/assets", ServeDir::new(dir.join("assets")))
        .fallback_service(ServeDir::new(dir).fallback(index))
        .layer(middleware::from_fn(cache_control))
        .layer(CompressionLayer::new())
}

async fn cache_control(req: Request, next: Next) -> Response {
    let hashed = req.uri().path().starts_with("/assets/");
    let mut resp = next.run(req).await;
    let value = if hashed && resp.status().is_success() {
        CACHE_IMMUTABLE
    } else {
        CACHE_REVALIDATE
    };
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    resp
}

async fn api_not_found() -> ApiError {
    ApiError::NotFound("route")
}

/// JSON body whose rejections become [`ApiError::BadRequest`] (a JSON error, not text).
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(ApiError::BadRequest(rejection.body_text())),
        }
    }
}

/// `GET /api/health`: 200 when the database answers, 503 otherwise.
async fn health(State(state): State<AppState>) -> Response {
    let backend = format!("{:?}", state.store.backend()).to_lowercase();
    match state.store.ping().await {
        Ok(()) => Json(json!({ "ok": true, "db": "ok", "backend": backend })).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check: database down");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "ok": false, "db": "error", "backend": backend })),
            )
                .into_response()
        }
    }
}

/// Body of `POST /api/session` and `PATCH /api/me`.
#[derive(Deserialize)]
struct NicknameBody {
    nickname: String,
}

/// A player as the API shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerView {
    id: i64,
    nickname: String,
    /// Signed in with an OpenID Connect account (may play ranked games).
    signed_in: bool,
}

impl From<Player> for PlayerView {
    fn from(p: Player) -> Self {
        PlayerView {
            id: p.id.0,
            signed_in: p.signed_in(),
            nickname: p.nickname,
        }
    }
}

/// `POST /api/session {"nickname"}`: a new guest and its session cookie.
async fn create_session(
    State(state): State<AppState>,
    jar: SignedCookieJar,
    JsonBody(body): JsonBody<NicknameBody>,
) -> Result<(StatusCode, SignedCookieJar, Json<PlayerView>), ApiError> {
    let name = nickname::validate(&body.nickname)?;
    let player = state.store.create_player(&name).await?;
    tracing::info!(player = %player.id, "new guest");
    let jar = jar.add(session::cookie(player.id, state.secure_cookies));
    Ok((StatusCode::CREATED, jar, Json(player.into())))
}

/// `DELETE /api/session`: forgets the cookie.
async fn end_session(jar: SignedCookieJar) -> (SignedCookieJar, StatusCode) {
    (
        jar.remove(Cookie::build(session::COOKIE).path("/")),
        StatusCode::NO_CONTENT,
    )
}

/// `GET /api/me`: the session's player.
async fn me(Guest(player): Guest) -> Json<PlayerView> {
    Json(player.into())
}

/// `PATCH /api/me {"nickname"}`: renames the session's player.
async fn rename(
    State(state): State<AppState>,
    Guest(player): Guest,
    JsonBody(body): JsonBody<NicknameBody>,
) -> Result<Json<PlayerView>, ApiError> {
    let name = nickname::validate(&body.nickname)?;
    let player = state.store.rename_player(player.id, &name).await?;
    crate::auth::rename_in_live_games(&state, player.id, &player.nickname).await;
    Ok(Json(player.into()))
}
