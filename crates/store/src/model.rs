//! The values the store reads and writes.

use std::{fmt, str::FromStr};

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use rand::{distr::Alphanumeric, Rng, RngCore};
use sha2::{Digest, Sha256};
use ttakji_rules::Variant;

use crate::StoreError;

/// How long a friend invitation works: 24 hours.
pub const INVITATION_LIFETIME_MS: i64 = 24 * 60 * 60 * 1000;

/// A moment as Unix milliseconds (wall-clock time, as stored in the database).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UnixMillis(pub i64);

/// A player's id: a database sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub i64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A game's id: eight random letters and digits, as in a game's URL.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub String);

impl GameId {
    /// Length of a game id.
    pub const LEN: usize = 8;

    /// A fresh random id (62⁸ ≈ 2·10¹⁴ possibilities).
    pub fn random() -> GameId {
        GameId(
            rand::rng()
                .sample_iter(&Alphanumeric)
                .take(Self::LEN)
                .map(char::from)
                .collect(),
        )
    }

    /// Whether `s` has the shape of a game id (checked before asking the database).
    pub fn is_well_formed(s: &str) -> bool {
        s.len() == Self::LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How the opponent was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Against the AI.
    Ai,
    /// Against a friend who opened an invitation link.
    Friend,
    /// Against a random opponent from matchmaking (maybe an AI stand-in).
    Random,
}

impl Mode {
    /// The name stored in the database.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Ai => "ai",
            Mode::Friend => "friend",
            Mode::Random => "random",
        }
    }
}

impl FromStr for Mode {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, StoreError> {
        match s {
            "ai" => Ok(Mode::Ai),
            "friend" => Ok(Mode::Friend),
            "random" => Ok(Mode::Random),
            _ => Err(StoreError::Corrupt(format!("mode {s:?}"))),
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Created, waiting for the second player (a friend game before the link is opened).
    Waiting,
    /// Being played.
    Playing,
    /// Over, with a result.
    Finished,
    /// Called off before it really started; no result.
    Aborted,
}

impl GameStatus {
    /// The name stored in the database.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Waiting => "waiting",
            GameStatus::Playing => "playing",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    /// Whether the game is over (finished or aborted).
    pub const fn is_over(self) -> bool {
        matches!(self, GameStatus::Finished | GameStatus::Aborted)
    }
}

impl FromStr for GameStatus {
    type Err = StoreError;
    fn from_str(s: &str) -> Result<Self, StoreError> {
        match s {
            "waiting" => Ok(GameStatus::Waiting),
            "playing" => Ok(GameStatus::Playing),
            "finished" => Ok(GameStatus::Finished),
            "aborted" => Ok(GameStatus::Aborted),
            _ => Err(StoreError::Corrupt(format!("status {s:?}"))),
        }
    }
}

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Id.
    pub id: PlayerId,
    /// Nickname shown to others.
    pub nickname: String,
    /// Google account subject, once signed in (for ranked play; not used yet).
    pub google_sub: Option<String>,
    /// E-mail address from Google sign-in (not used yet).
    pub email: Option<String>,
    /// When the player was created.
    pub created_at: UnixMillis,
    /// When the account was deleted (the nickname is then an anonymous label).
    pub deleted_at: Option<UnixMillis>,
}

impl Player {
    /// Whether the player signed in with an OpenID Connect account (may play rated games).
    pub fn signed_in(&self) -> bool {
        self.google_sub.is_some() && self.deleted_at.is_none()
    }
}

/// The time control a game was created with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockSettings {
    /// Main time per player.
    pub main_ms: i64,
    /// Byo-yomi periods per player.
    pub periods: i64,
    /// Length of one period.
    pub period_ms: i64,
}

/// A game to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Which game.
    pub variant: Variant,
    /// How the opponent was found.
    pub mode: Mode,
    /// The AI's level (`easy`, `normal`, `hard`) if one side is the AI.
    pub ai_level: Option<String>,
    /// The player of the side that moves first; `None` for the AI or an empty seat.
    pub first_player: Option<PlayerId>,
    /// The player of the other side; `None` for the AI or an empty seat.
    pub second_player: Option<PlayerId>,
    /// Start position (FEN, PDN FEN for checkers).
    pub initial_fen: String,
    /// Time control; `None` for untimed games (against the AI).
    pub clock: Option<ClockSettings>,
    /// The clock's saved state (text of `ttakji_game::clock::ClockState`).
    pub clock_state: Option<String>,
    /// `Waiting` or `Playing`.
    pub status: GameStatus,
    /// The game this is a rematch of.
    pub rematch_of: Option<GameId>,
    /// Whether the result moves both players' ratings (never for AI games).
    pub rated: bool,
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Id.
    pub id: GameId,
    /// Which game.
    pub variant: Variant,
    /// How the opponent was found.
    pub mode: Mode,
    /// The AI's level if one side is the AI.
    pub ai_level: Option<String>,
    /// Player of the side that moves first (`None`: AI or empty seat).
    pub first_player: Option<PlayerId>,
    /// Player of the other side (`None`: AI or empty seat).
    pub second_player: Option<PlayerId>,
    /// Start position.
    pub initial_fen: String,
    /// Time control.
    pub clock: Option<ClockSettings>,
    /// Latest saved clock state.
    pub clock_state: Option<String>,
    /// Where the game stands.
    pub status: GameStatus,
    /// `1-0`, `0-1` or `1/2-1/2` once finished.
    pub result: Option<String>,
    /// Why it ended (`checkmate`, `time`, `resign`, `counting`, …).
    pub reason: Option<String>,
    /// The game this is a rematch of.
    pub rematch_of: Option<GameId>,
    /// When it was created.
    pub created_at: UnixMillis,
    /// When it ended.
    pub finished_at: Option<UnixMillis>,
    /// Whether the result moves both players' ratings.
    pub rated: bool,
}

/// A move to append.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMove {
    /// Ply number, from 1: must be the next one.
    pub ply: i64,
    /// The move in the game's notation (UCI/ICCS/PDN), with any Makruk count action.
    pub mv: String,
    /// Time charged on the mover's clock, if timed.
    pub spent_ms: Option<i64>,
    /// Clock state after the move, saved with it (and as the game's clock state).
    pub clock_after: Option<String>,
}

/// A move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Ply number, from 1.
    pub ply: i64,
    /// The move.
    pub mv: String,
    /// Time charged on the mover's clock.
    pub spent_ms: Option<i64>,
    /// Clock state after the move.
    pub clock_after: Option<String>,
    /// When it was stored.
    pub created_at: UnixMillis,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `Finished` or `Aborted`.
    pub status: GameStatus,
    /// `1-0`, `0-1`, `1/2-1/2`; `None` when aborted.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: String,
    /// Final clock state.
    pub clock_state: Option<String>,
    /// When it ended.
    pub at: UnixMillis,
}

/// The secret of a friend invitation: 256 random bits, URL-safe base64. Only its SHA-256 is
/// stored, so a leaked database does not open games.
#[derive(Clone, PartialEq, Eq)]
pub struct InvitationToken(pub String);

impl fmt::Debug for InvitationToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("InvitationToken(…)")
    }
}

impl InvitationToken {
    /// A fresh random token.
    pub fn random() -> InvitationToken {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        InvitationToken(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// The token's text, as put in the link.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The stored form of a token.
pub(crate) fn hash_token(token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()))
}

/// An invitation as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The game it opens.
    pub game_id: GameId,
    /// Who created it.
    pub creator: PlayerId,
    /// When.
    pub created_at: UnixMillis,
    /// After this it no longer works.
    pub expires_at: UnixMillis,
    /// When it was used.
    pub consumed_at: Option<UnixMillis>,
    /// Who used it.
    pub consumed_by: Option<PlayerId>,
}

/// The fewest rated games that put a player on a leaderboard.
pub const LEADERBOARD_MIN_GAMES: i64 = 10;

/// A player's rating in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    /// Which game.
    pub variant: Variant,
    /// The Elo rating.
    pub rating: i64,
    /// Rated games played.
    pub games: i64,
    /// When the last of them ended.
    pub last_played_at: UnixMillis,
}

/// One player's rating change from one rated game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatingChange {
    /// The game.
    pub game_id: GameId,
    /// The player.
    pub player: PlayerId,
    /// Which game (variant).
    pub variant: Variant,
    /// Rating before the game.
    pub before: i64,
    /// Rating after it.
    pub after: i64,
    /// When the game ended.
    pub at: UnixMillis,
}

/// A line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderboardEntry {
    /// Place, from 1 (ties broken by player id: the older account first).
    pub rank: i64,
    /// The player.
    pub player: PlayerId,
    /// Their nickname.
    pub nickname: String,
    /// Their rating.
    pub rating: i64,
    /// Their rated games.
    pub games: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_are_eight_alphanumerics() {
        let id = GameId::random();
        assert!(GameId::is_well_formed(id.as_str()), "{id}");
        assert!(!GameId::is_well_formed("abc"));
        assert!(!GameId::is_well_formed("abcd/fgh"));
        assert_ne!(GameId::random(), GameId::random());
    }

    #[test]
    fn tokens_carry_256_bits_and_hash_stably() {
        let t = InvitationToken::random();
        assert_eq!(t.as_str().len(), 43);
        assert_ne!(t, InvitationToken::random());
        assert_eq!(hash_token(t.as_str()), hash_token(t.as_str()));
        assert_ne!(hash_token(t.as_str()), t.as_str());
        assert_eq!(format!("{t:?}"), "InvitationToken(…)");
    }

    #[test]
    fn names_round_trip() {
        for m in [Mode::Ai, Mode::Friend, Mode::Random] {
            assert_eq!(m.as_str().parse::<Mode>().ok(), Some(m));
        }
        for s in [
            GameStatus::Waiting,
            GameStatus::Playing,
            GameStatus::Finished,
            GameStatus::Aborted,
        ] {
            assert_eq!(s.as_str().parse::<GameStatus>().ok(), Some(s));
        }
        assert!("x".parse::<Mode>().is_err());
    }
}
