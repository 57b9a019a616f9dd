//! The one error type of the HTTP boundary: each variant knows its status code and how loudly
//! to log it; the client gets `{"error": "…"}`.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;
use ttakji_store::StoreError;

use crate::nickname::NicknameError;

/// An HTTP request that failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The nickname was refused.
    #[error("{0}")]
    Nickname(#[from] NicknameError),
    /// The body was not the JSON expected.
    #[error("bad request: {0}")]
    BadRequest(String),
    /// No (valid) session cookie.
    #[error("no session: choose a nickname first")]
    NoSession,
    /// The thing asked for does not exist.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The request contradicts the state of things (a taken seat, one's own invitation).
    #[error("{0}")]
    Conflict(String),
    /// A game actor could not answer.
    #[error("the game is unavailable, try again")]
    Unavailable,
    /// The store failed.
    #[error("storage unavailable")]
    Store(#[from] StoreError),
    /// The OpenID Connect ID token was refused (signature, issuer, audience, time, shape).
    #[error("sign-in refused: {0}")]
    InvalidToken(String),
    /// Ranked play needs a signed-in account.
    #[error("ranked games need both players signed in")]
    SignInRequired,
    /// No OpenID Connect client id is configured: no sign-in, no ranked play.
    #[error("ranked play is not available on this server")]
    RankedUnavailable,
}

impl ApiError {
    /// The short code sent as `error` (the protocol's machine-readable part).
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Nickname(_) => "bad_nickname",
            ApiError::BadRequest(_) => "bad_request",
            ApiError::NoSession => "no_session",
            ApiError::NotFound(_) | ApiError::Store(StoreError::NotFound(_)) => "not_found",
            ApiError::Conflict(_) | ApiError::Store(StoreError::Conflict(_)) => "conflict",
            ApiError::Store(StoreError::UnknownInvitation) => "unknown_invitation",
            ApiError::Store(StoreError::ExpiredInvitation) => "expired_invitation",
            ApiError::Store(StoreError::ConsumedInvitation) => "taken_invitation",
            ApiError::Unavailable | ApiError::Store(_) => "unavailable",
            ApiError::InvalidToken(_) => "invalid_token",
            ApiError::SignInRequired => "sign_in_required",
            ApiError::RankedUnavailable => "ranked_unavailable",
        }
    }

    /// The status code sent for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Nickname(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NoSession => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Store(StoreError::NotFound(_)) => StatusCode::NOT_FOUND,
            ApiError::Store(StoreError::Conflict(_)) => StatusCode::CONFLICT,
            ApiError::Store(StoreError::UnknownInvitation) => StatusCode::NOT_FOUND,
            ApiError::Store(StoreError::ExpiredInvitation) => StatusCode::GONE,
            ApiError::Store(StoreError::ConsumedInvitation) => StatusCode::CONFLICT,
            ApiError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::InvalidToken(_) => StatusCode::UNAUTHORIZED,
            ApiError::SignInRequired => StatusCode::FORBIDDEN,
            ApiError::RankedUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status.is_server_error() {
            tracing::error!(error = ?self, "request failed");
        } else {
            tracing::info!(error = %self, %status, "request refused");
        }
        let message = match &self {
            // Say what is wrong with the invitation; hide other storage details.
            ApiError::Store(
                e @ (StoreError::NotFound(_)
                | StoreError::Conflict(_)
                | StoreError::UnknownInvitation
                | StoreError::ExpiredInvitation
                | StoreError::ConsumedInvitation),
            ) => e.to_string(),
            other => other.to_string(),
        };
        (
            status,
            Json(json!({ "error": self.code(), "message": message })),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_map_to_their_status_codes() {
        assert_eq!(
            ApiError::Nickname(NicknameError::TooShort).status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(ApiError::NoSession.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            ApiError::Store(StoreError::ExpiredInvitation).status(),
            StatusCode::GONE
        );
        assert_eq!(
            ApiError::Store(StoreError::BadUrl("x".into())).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
