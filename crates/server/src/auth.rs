//! Sign-in with OpenID Connect (Google by default): the server checks the ID token itself,
//! then links the account's subject to a player.
//!
//! The check: the token is a JWS signed RS256 by a key of the provider's JWKS (fetched over
//! HTTPS, kept as long as its `Cache-Control: max-age` says, fetched again, at most once per
//! [`OidcConfig::refetch_interval`] (10 s by default), when a token names an unknown key id,
//! so a rotated key is picked up on its first token), `iss` is the configured
//! issuer, `aud` our client id, `exp` in the future and `iat` not in the future, both with
//! [`LEEWAY_SECS`] of leeway. Anything else, `alg: none` included, is a 401 and changes nothing.
//!
//! Signing in links the subject to the session's guest the first time (nickname and games carry
//! over); a subject already known switches the session to its player. Without a configured
//! client id there is no sign-in and ranked play is shown as unavailable.
//!
//! `--dev-oidc-issuer` makes the server its own issuer ([`DevIssuer`]) so that the browser
//! tests can sign in without Google; it is refused off loopback and logged loudly.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode},
    Json,
};
use axum_extra::extract::cookie::{Cookie, SignedCookieJar};
use jsonwebtoken::{
    decode, decode_header, jwk::JwkSet, Algorithm, DecodingKey, EncodingKey, Header, Validation,
};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Mutex;
use ttakji_store::{now_millis, Player, PlayerId};

use crate::{
    error::ApiError,
    http::{JsonBody, PlayerView},
    nickname,
    session::{self, Guest},
    AppState, Opt,
};

/// Leeway on `exp` and `iat`, for clocks that disagree a little.
pub const LEEWAY_SECS: u64 = 60;
/// Default of the fewest seconds between two JWKS fetches caused by unknown key ids (a flood
/// of forged `kid`s must not turn into a flood of requests to the provider).
pub const REFETCH_INTERVAL: Duration = Duration::from_secs(10);
/// How long keys are kept when the provider sends no `max-age`.
pub const DEFAULT_KEY_LIFETIME: Duration = Duration::from_secs(3600);
/// Longest a key set is kept, whatever `max-age` says.
pub const MAX_KEY_LIFETIME: Duration = Duration::from_secs(24 * 3600);
/// Longest ID token read.
pub const MAX_TOKEN_BYTES: usize = 8 * 1024;
/// The nickname a deleted account is shown under (a reserved word no guest can take).
pub const DELETED_LABEL: &str = "anonymous";

/// Who the provider and we are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OidcConfig {
    /// Expected `iss`.
    pub issuer: String,
    /// Where the provider publishes its keys.
    pub jwks_url: String,
    /// Our client id: the expected `aud`.
    pub client_id: String,
    /// Fewest time between two key fetches for unknown key ids ([`REFETCH_INTERVAL`]; tests of
    /// key rotation use zero).
    pub refetch_interval: Duration,
}

/// Why a token was refused.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// Not a JWS at all, or too long.
    #[error("malformed token")]
    Malformed,
    /// Signed with another algorithm than RS256 (`none` included).
    #[error("algorithm {0} is not accepted")]
    Algorithm(String),
    /// The key id is not among the provider's keys.
    #[error("unknown signing key")]
    UnknownKey,
    /// Signature, issuer, audience, expiry or a missing claim.
    #[error("{0}")]
    Invalid(#[from] jsonwebtoken::errors::Error),
    /// Issued in the future.
    #[error("token issued in the future")]
    IssuedInFuture,
    /// The provider's keys could not be fetched.
    #[error("the provider's keys are unavailable: {0}")]
    Keys(String),
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> ApiError {
        match e {
            AuthError::Keys(_) => {
                tracing::warn!(error = %e, "sign-in: no keys");
                ApiError::Unavailable
            }
            other => ApiError::InvalidToken(other.to_string()),
        }
    }
}

/// The claims read from an ID token.
#[derive(Clone, Debug, Deserialize)]
pub struct Identity {
    /// The account's stable id at the provider.
    pub sub: String,
    /// Its e-mail address, if shared.
    #[serde(default)]
    pub email: Option<String>,
    /// Its display name, if shared.
    #[serde(default)]
    pub name: Option<String>,
    /// Issued at (Unix seconds).
    pub iat: u64,
}

#[derive(Default)]
struct KeyCache {
    keys: HashMap<String, DecodingKey>,
    fresh_until: Option<Instant>,
    last_fetch: Option<Instant>,
}

/// Checks ID tokens against one provider.
pub struct Verifier {
    config: OidcConfig,
    http: reqwest::Client,
    cache: Mutex<KeyCache>,
}

/// The `max-age` of a `Cache-Control` header, clamped to [`MAX_KEY_LIFETIME`].
pub fn max_age(cache_control: Option<&str>) -> Duration {
    cache_control
        .into_iter()
        .flat_map(|v| v.split(','))
        .filter_map(|d| d.trim().strip_prefix("max-age="))
        .find_map(|n| n.trim().parse::<u64>().ok())
        .map_or(DEFAULT_KEY_LIFETIME, Duration::from_secs)
        .min(MAX_KEY_LIFETIME)
}

impl Verifier {
    /// A verifier for `config`; keys are fetched on first use.
    pub fn new(config: OidcConfig) -> anyhow::Result<Verifier> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .build()?;
        Ok(Verifier {
            config,
            http,
            cache: Mutex::new(KeyCache::default()),
        })
    }

    /// The provider and client this verifier checks for.
    pub fn config(&self) -> &OidcConfig {
        &self.config
    }

    /// The identity in `token`, if the token is valid.
    pub async fn verify(&self, token: &str) -> Result<Identity, AuthError> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(AuthError::Malformed);
        }
        // An unknown `alg` (such as `none`) fails to parse here.
        let header = decode_header(token).map_err(|_| AuthError::Malformed)?;
        if header.alg != Algorithm::RS256 {
            return Err(AuthError::Algorithm(format!("{:?}", header.alg)));
        }
        let kid = header.kid.ok_or(AuthError::UnknownKey)?;
        let key = self.key(&kid).await?;
        let mut validation = Validation::new(Algorithm::RS256);
        let mut issuers = vec![self.config.issuer.clone()];
        // Google's tokens name their issuer with or without the scheme.
        if let Some(bare) = self.config.issuer.strip_prefix("https://") {
            if bare == "accounts.google.com" {
                issuers.push(bare.to_owned());
            }
        }
        validation.set_issuer(issuers.as_slice());
        validation.set_audience(&[&self.config.client_id]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
        validation.leeway = LEEWAY_SECS;
        let data = decode::<Identity>(token, &key, &validation)?;
        let now = u64::try_from(now_millis().0 / 1000).unwrap_or(0);
        if data.claims.iat > now + LEEWAY_SECS {
            return Err(AuthError::IssuedInFuture);
        }
        Ok(data.claims)
    }

    async fn key(&self, kid: &str) -> Result<DecodingKey, AuthError> {
        // One fetch at a time: waiting requests then find the fresh keys.
        let mut cache = self.cache.lock().await;
        let now = Instant::now();
        let fresh = cache.fresh_until.is_some_and(|t| now < t);
        if fresh {
            if let Some(key) = cache.keys.get(kid) {
                return Ok(key.clone());
            }
        }
        let may_fetch = !fresh
            || cache
                .last_fetch
                .is_none_or(|t| now.duration_since(t) >= self.config.refetch_interval);
        if may_fetch {
            cache.last_fetch = Some(now);
            match self.fetch_keys().await {
                Ok((keys, lifetime)) => {
                    tracing::info!(keys = keys.len(), ?lifetime, "fetched the provider's keys");
                    cache.keys = keys;
                    cache.fresh_until = Some(now + lifetime);
                }
                Err(e) if cache.keys.is_empty() => return Err(e),
                // Keep the old keys while the provider is down.
                Err(e) => tracing::warn!(error = %e, "keeping the provider's old keys"),
            }
        }
        cache.keys.get(kid).cloned().ok_or(AuthError::UnknownKey)
    }

    async fn fetch_keys(&self) -> Result<(HashMap<String, DecodingKey>, Duration), AuthError> {
        let keys_error = |e: reqwest::Error| AuthError::Keys(e.to_string());
        let resp = self
            .http
            .get(&self.config.jwks_url)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(keys_error)?;
        let lifetime = max_age(
            resp.headers()
                .get(reqwest::header::CACHE_CONTROL)
                .and_then(|v| v.to_str().ok()),
        );
        let set: JwkSet = resp.json().await.map_err(keys_error)?;
        let mut keys = HashMap::new();
        for jwk in &set.keys {
            let Some(kid) = &jwk.common.key_id else {
                continue;
            };
            // Keys of other types (EC) cannot check RS256 tokens: skip them.
            if let Ok(key) = DecodingKey::from_jwk(jwk) {
                keys.insert(kid.clone(), key);
            }
        }
        Ok((keys, lifetime))
    }
}

/// Sign-in as the server runs it: the verifier, or why there is none.
#[derive(Clone)]
pub struct Auth {
    /// Checks tokens; `None` when no client id is configured.
    pub verifier: Option<Arc<Verifier>>,
    /// The development issuer, when `--dev-oidc-issuer` is on.
    pub dev: Option<Arc<DevIssuer>>,
}

impl Auth {
    /// No sign-in.
    pub fn unavailable() -> Auth {
        Auth {
            verifier: None,
            dev: None,
        }
    }

    /// Sign-in as the options say: the development issuer with `--dev-oidc-issuer` (only on
    /// a loopback `addr`), else the configured provider if there is a client id, else none.
    pub fn from_opt(opt: &Opt, addr: SocketAddr) -> anyhow::Result<Auth> {
        if opt.dev_oidc_issuer {
            if !addr.ip().is_loopback() {
                anyhow::bail!(
                    "--dev-oidc-issuer lets anybody sign in as anybody: refused on {addr}, \
                     use it on a loopback address only"
                );
            }
            let issuer = format!("http://{addr}/api/dev-oidc");
            let client_id = "ttakji-dev".to_owned();
            let dev = DevIssuer::new(issuer.clone(), client_id.clone())?;
            let verifier = Verifier::new(OidcConfig {
                jwks_url: format!("{issuer}/jwks"),
                issuer,
                client_id,
                refetch_interval: opt.oidc_refetch_interval(),
            })?;
            tracing::warn!(
                "!!! --dev-oidc-issuer is ON: this server signs in ANYBODY as ANY account. \
                 For development and tests only; never in production. !!!"
            );
            return Ok(Auth {
                verifier: Some(Arc::new(verifier)),
                dev: Some(Arc::new(dev)),
            });
        }
        match opt.oidc_client_id.as_deref().map(str::trim) {
            Some(client_id) if !client_id.is_empty() => {
                tracing::info!(issuer = %opt.oidc_issuer, "sign-in and ranked play on");
                Ok(Auth {
                    verifier: Some(Arc::new(Verifier::new(OidcConfig {
                        issuer: opt.oidc_issuer.clone(),
                        jwks_url: opt.oidc_jwks_url.clone(),
                        client_id: client_id.to_owned(),
                        refetch_interval: opt.oidc_refetch_interval(),
                    })?)),
                    dev: None,
                })
            }
            _ => {
                tracing::info!("no --oidc-client-id: sign-in and ranked play are off");
                Ok(Auth::unavailable())
            }
        }
    }

    fn verifier(&self) -> Result<&Verifier, ApiError> {
        self.verifier.as_deref().ok_or(ApiError::RankedUnavailable)
    }
}

/// `GET /api/config`: what the client needs to offer sign-in and ranked play.
pub async fn config(State(state): State<AppState>) -> Json<Value> {
    let ranked = match &state.auth.verifier {
        Some(v) => json!({
            "available": true,
            "clientId": v.config().client_id,
            "dev": state.auth.dev.is_some(),
        }),
        None => json!({ "available": false, "reason": "no_client_id", "dev": false }),
    };
    Json(json!({ "ranked": ranked }))
}

/// Body of `POST /api/auth/signin`.
#[derive(Deserialize)]
pub struct SignInBody {
    /// The ID token (Google Identity Services calls it the credential).
    credential: String,
}

/// `POST /api/auth/signin {"credential"}`: checks the ID token and signs the session in.
pub async fn sign_in(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: SignedCookieJar,
    JsonBody(body): JsonBody<SignInBody>,
) -> Result<(SignedCookieJar, Json<PlayerView>), ApiError> {
    let identity = state.auth.verifier()?.verify(&body.credential).await?;
    let current = session::player_from_headers(&state.store, &state.key, &headers).await?;
    let player = account_for(&state, &identity, current).await?;
    tracing::info!(player = %player.id, "signed in");
    let jar = jar.add(session::cookie(player.id, state.secure_cookies));
    Ok((jar, Json(player.into())))
}

async fn account_for(
    state: &AppState,
    identity: &Identity,
    current: Option<Player>,
) -> Result<Player, ApiError> {
    let store = &state.store;
    if let Some(known) = store.player_by_google_sub(&identity.sub).await? {
        return Ok(known);
    }
    let email = identity.email.as_deref();
    match current {
        Some(guest) if guest.google_sub.is_none() && guest.deleted_at.is_none() => Ok(store
            .link_google_account(guest.id, &identity.sub, email)
            .await?),
        _ => {
            // No guest to carry over: the provider's name if it is a valid nickname.
            let name = identity
                .name
                .as_deref()
                .and_then(|n| nickname::validate(n).ok())
                .unwrap_or_else(|| "player".to_owned());
            Ok(store
                .create_google_account(&name, &identity.sub, email)
                .await?)
        }
    }
}

/// `DELETE /api/me`: deletes the account's personal data (the games stay, anonymised) and
/// ends the session.
pub async fn delete_account(
    State(state): State<AppState>,
    Guest(player): Guest,
    jar: SignedCookieJar,
) -> Result<(SignedCookieJar, StatusCode), ApiError> {
    state
        .store
        .delete_account(player.id, DELETED_LABEL, now_millis())
        .await?;
    tracing::info!(player = %player.id, "account deleted");
    rename_in_live_games(&state, player.id, DELETED_LABEL).await;
    Ok((
        jar.remove(Cookie::build(session::COOKIE).path("/")),
        StatusCode::NO_CONTENT,
    ))
}

/// Shows `player` under `name` in the games they are playing or waiting in: their rounds keep
/// the seats' names in memory. A failure only leaves the old name on screen until the round is
/// loaded again, so it is logged, not returned.
pub async fn rename_in_live_games(state: &AppState, player: PlayerId, name: &str) {
    let games = match state.store.unfinished_games_of(player).await {
        Ok(games) => games,
        Err(e) => {
            tracing::warn!(%player, error = %e, "live games not renamed");
            return;
        }
    };
    for id in games {
        match state.rounds.get(&id).await {
            Ok(Some(round)) => {
                let _ = round.rename(player, name.to_owned()).await;
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(game = %id, error = %e, "live game not renamed"),
        }
    }
}

/// A local OpenID Connect issuer for development and the browser tests: its own RSA key,
/// its JWKS at `/api/dev-oidc/jwks`, and tokens for any subject at `/api/dev-oidc/token`.
/// Anybody can sign in as anybody with it, so it is never on by accident: only with
/// `--dev-oidc-issuer` (no environment fallback), only on a loopback address, and logged as a
/// warning at start-up.
pub struct DevIssuer {
    issuer: String,
    client_id: String,
    key: EncodingKey,
    jwks: Value,
}

/// Key id of the development issuer's key.
const DEV_KID: &str = "ttakji-dev";

impl DevIssuer {
    /// A fresh issuer named `issuer` for `client_id`, with a new 2048-bit RSA key.
    pub fn new(issuer: String, client_id: String) -> anyhow::Result<DevIssuer> {
        use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
        use rsa::{pkcs1::EncodeRsaPrivateKey, traits::PublicKeyParts, RsaPrivateKey};
        let private = RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048)?;
        let der = private.to_pkcs1_der()?;
        let jwks = json!({ "keys": [{
            "kty": "RSA",
            "alg": "RS256",
            "use": "sig",
            "kid": DEV_KID,
            "n": URL_SAFE_NO_PAD.encode(private.n().to_bytes_be()),
            "e": URL_SAFE_NO_PAD.encode(private.e().to_bytes_be()),
        }]});
        Ok(DevIssuer {
            issuer,
            client_id,
            key: EncodingKey::from_rsa_der(der.as_bytes()),
            jwks,
        })
    }

    /// An ID token for `sub`, valid for an hour.
    pub fn token(&self, sub: &str, name: Option<&str>) -> Result<String, ApiError> {
        let now = now_millis().0 / 1000;
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(DEV_KID.to_owned());
        let claims = json!({
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": sub,
            "name": name,
            "iat": now,
            "exp": now + 3600,
        });
        jsonwebtoken::encode(&header, &claims, &self.key).map_err(|e| {
            tracing::error!(error = %e, "dev issuer could not sign");
            ApiError::Unavailable
        })
    }
}

/// `GET /api/dev-oidc/jwks`: the development issuer's keys.
pub async fn dev_jwks(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let dev = state.auth.dev.as_ref().ok_or(ApiError::NotFound("route"))?;
    Ok(Json(dev.jwks.clone()))
}

/// Body of `POST /api/dev-oidc/token`.
#[derive(Deserialize)]
pub struct DevTokenBody {
    sub: String,
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/dev-oidc/token {"sub", "name"?}`: a token from the development issuer.
pub async fn dev_token(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<DevTokenBody>,
) -> Result<Json<Value>, ApiError> {
    let dev = state.auth.dev.as_ref().ok_or(ApiError::NotFound("route"))?;
    if body.sub.is_empty() || body.sub.len() > 255 {
        return Err(ApiError::BadRequest("sub must have 1 to 255 bytes".into()));
    }
    let token = dev.token(&body.sub, body.name.as_deref())?;
    Ok(Json(json!({ "credential": token })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_lifetime_follows_max_age_within_bounds() {
        assert_eq!(
            max_age(Some("public, max-age=19966, must-revalidate, no-transform")),
            Duration::from_secs(19966)
        );
        assert_eq!(max_age(None), DEFAULT_KEY_LIFETIME);
        assert_eq!(max_age(Some("no-cache")), DEFAULT_KEY_LIFETIME);
        assert_eq!(max_age(Some("max-age=99999999")), MAX_KEY_LIFETIME);
        assert_eq!(max_age(Some("max-age=0")), Duration::ZERO);
    }
}
