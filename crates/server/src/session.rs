//! Guest sessions: a signed, HTTP-only cookie holding the player id.
//!
//! The cookie is signed with a secret key (HMAC, axum-extra's `SignedCookieJar`), so a
//! visitor can read but not forge or alter it; a tampered cookie is treated as no cookie. The
//! key comes from `--cookie-secret`, or from a file generated on first start and kept beside
//! the database, so sessions survive restarts.

use std::{
    fs,
    io::{ErrorKind, Write},
    path::Path,
    sync::Arc,
};

use anyhow::{bail, Context};
use axum::{
    extract::{FromRef, FromRequestParts},
    http::{request::Parts, HeaderMap},
};
use axum_extra::extract::cookie::{Cookie, Key, SameSite, SignedCookieJar};
use base64::{
    engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD},
    Engine,
};
use ttakji_store::{Player, PlayerId, Store};

use crate::{error::ApiError, opt::Opt, AppState};

/// Name of the session cookie.
pub const COOKIE: &str = "ttakji_session";

/// Fewest bytes of a cookie secret.
pub const MIN_SECRET_BYTES: usize = 64;

fn key_from_base64(text: &str) -> anyhow::Result<Key> {
    let text = text.trim();
    let bytes = STANDARD
        .decode(text)
        .or_else(|_| URL_SAFE_NO_PAD.decode(text))
        .context("the cookie secret is not base64")?;
    if bytes.len() < MIN_SECRET_BYTES {
        bail!(
            "the cookie secret has {} bytes; it needs at least {MIN_SECRET_BYTES}",
            bytes.len()
        );
    }
    Key::try_from(bytes.as_slice()).context("unusable cookie secret")
}

/// The cookie-signing key: `--cookie-secret`, else the secret file (created with a fresh
/// random secret, readable by the owner only, if it does not exist).
pub fn load_or_create_key(opt: &Opt) -> anyhow::Result<Key> {
    if let Some(secret) = &opt.cookie_secret {
        return key_from_base64(secret);
    }
    let path = opt.secret_path();
    match fs::read_to_string(&path) {
        Ok(text) => key_from_base64(&text).with_context(|| format!("in {}", path.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => create_secret_file(&path),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

fn create_secret_file(path: &Path) -> anyhow::Result<Key> {
    let key = Key::generate();
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(STANDARD.encode(key.master()).as_bytes())?;
            file.sync_all()?;
            tracing::info!(path = %path.display(), "generated a new cookie secret");
            Ok(key)
        }
        // Another process created it first: use theirs.
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {
            key_from_base64(&fs::read_to_string(path)?)
        }
        Err(e) => Err(e).with_context(|| format!("creating {}", path.display())),
    }
}

/// The session cookie for `player`.
pub fn cookie(player: PlayerId, secure: bool) -> Cookie<'static> {
    Cookie::build((COOKIE, player.0.to_string()))
        .http_only(true)
        .secure(secure)
        .same_site(SameSite::Lax)
        .path("/")
        .permanent()
        .build()
}

/// The player id in a validly signed session cookie in `headers`, if any. The signature
/// proves the server issued it; whether the player is still known is the store's to say
/// ([`player_from_headers`]).
pub fn player_id_from_headers(key: &Key, headers: &HeaderMap) -> Option<PlayerId> {
    let jar = SignedCookieJar::from_headers(headers, key.clone());
    jar.get(COOKIE)
        .and_then(|c| c.value().parse::<i64>().ok())
        .map(PlayerId)
}

/// The player whose valid session cookie is in `headers`, if any.
pub async fn player_from_headers(
    store: &Arc<dyn Store>,
    key: &Key,
    headers: &HeaderMap,
) -> Result<Option<Player>, ApiError> {
    let Some(id) = player_id_from_headers(key, headers) else {
        return Ok(None);
    };
    Ok(store.player(id).await?)
}

/// A request from a visitor with a valid session; rejected with 401 otherwise.
#[derive(Clone, Debug)]
pub struct Guest(pub Player);

impl<S> FromRequestParts<S> for Guest
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let state = AppState::from_ref(state);
        player_from_headers(&state.store, &state.key, &parts.headers)
            .await?
            .map(Guest)
            .ok_or(ApiError::NoSession)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_must_be_long_base64() {
        assert!(key_from_base64("not base64!").is_err());
        assert!(key_from_base64(&STANDARD.encode([1u8; 32])).is_err());
        assert!(key_from_base64(&STANDARD.encode([1u8; 64])).is_ok());
    }

    #[test]
    fn the_secret_file_is_created_once_and_reused() {
        let dir = tempfile::tempdir().expect("dir");
        let mut opt = Opt::defaults();
        opt.secret_file = Some(dir.path().join("s"));
        let a = load_or_create_key(&opt).expect("create");
        let b = load_or_create_key(&opt).expect("reuse");
        assert_eq!(a.master(), b.master());
        opt.cookie_secret = Some(STANDARD.encode([7u8; 64]));
        assert_eq!(load_or_create_key(&opt).expect("given").master(), [7u8; 64]);
    }

    #[test]
    fn session_cookie_is_http_only_lax_and_secure_when_asked() {
        let c = cookie(PlayerId(42), true);
        assert_eq!(c.value(), "42");
        assert_eq!(c.http_only(), Some(true));
        assert_eq!(c.secure(), Some(true));
        assert_eq!(c.same_site(), Some(SameSite::Lax));
        assert_eq!(cookie(PlayerId(1), false).secure(), Some(false));
    }
}
