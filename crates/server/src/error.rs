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
    /// The store failed.
    #[error("storage unavailable")]
    Store(#[from] StoreError),
}

impl ApiError {
    /// The status code sent for this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Nickname(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NoSession => StatusCode::UNAUTHORIZED,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Store(StoreError::NotFound(_)) => StatusCode::NOT_FOUND,
            ApiError::Store(StoreError::Conflict(_)) => StatusCode::CONFLICT,
            ApiError::Store(
                StoreError::UnknownInvitation
                | StoreError::ExpiredInvitation
                | StoreError::ConsumedInvitation,
            ) => StatusCode::GONE,
            ApiError::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
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
        (status, Json(json!({ "error": message }))).into_response()
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
