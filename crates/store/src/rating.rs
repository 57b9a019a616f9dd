//! Elo ratings: pure arithmetic, no I/O. The store applies [`update`] to both players inside
//! the transaction that records a rated game's result.
//!
//! Choices (issue 6):
//! - every player starts at [`INITIAL`] (1,200) in each game;
//! - the expected score is the logistic one, `E = 1 / (1 + 10^((Ro - R) / 400))`;
//! - the K factor is [`K_PROVISIONAL`] (40) for a player's first [`PROVISIONAL_GAMES`] (30)
//!   rated games in that game, then [`K_ESTABLISHED`] (20): new players reach their level
//!   quickly, settled ratings move less;
//! - each player's change is `round(K · (S − E))` with their own K, so a provisional player
//!   against an established one is not a zero-sum exchange (as in FIDE's rules).
//!
//! ```
//! use ttakji_store::rating::{update, Score};
//! // Two new players at 1,200: the winner gains 20, the loser loses 20.
//! assert_eq!(update(1200, 0, 1200, Score::Win), 1220);
//! assert_eq!(update(1200, 0, 1200, Score::Loss), 1180);
//! ```

/// Everybody's rating before their first rated game.
pub const INITIAL: i64 = 1200;
/// K factor while a player is new.
pub const K_PROVISIONAL: f64 = 40.0;
/// K factor once a player has [`PROVISIONAL_GAMES`] rated games.
pub const K_ESTABLISHED: f64 = 20.0;
/// How many rated games a player is new for.
pub const PROVISIONAL_GAMES: i64 = 30;

/// One player's score in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// 1 point.
    Win,
    /// ½ point.
    Draw,
    /// 0 points.
    Loss,
}

impl Score {
    /// The points.
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The scores of the first and second player for a result text (`1-0`, `0-1`,
    /// `1/2-1/2`); `None` for anything else.
    pub fn from_result(result: &str) -> Option<(Score, Score)> {
        match result {
            "1-0" => Some((Score::Win, Score::Loss)),
            "0-1" => Some((Score::Loss, Score::Win)),
            "1/2-1/2" => Some((Score::Draw, Score::Draw)),
            _ => None,
        }
    }
}

/// The expected score of a player rated `rating` against one rated `opponent`.
pub fn expected(rating: i64, opponent: i64) -> f64 {
    // Ratings are small integers: the conversion to f64 is exact.
    let diff = (opponent - rating) as f64;
    1.0 / (1.0 + 10f64.powf(diff / 400.0))
}

/// The K factor of a player who has played `games` rated games before this one.
pub fn k_factor(games: i64) -> f64 {
    if games < PROVISIONAL_GAMES {
        K_PROVISIONAL
    } else {
        K_ESTABLISHED
    }
}

/// The new rating of a player rated `rating` with `games` earlier rated games, after scoring
/// `score` against an opponent rated `opponent`.
pub fn update(rating: i64, games: i64, opponent: i64, score: Score) -> i64 {
    let change = k_factor(games) * (score.points() - expected(rating, opponent));
    // |change| ≤ 40: the cast cannot overflow.
    rating + change.round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_are_logistic_and_sum_to_one() {
        assert!((expected(1200, 1200) - 0.5).abs() < 1e-12);
        // 400 points apart: 10 to 1.
        assert!((expected(1600, 1200) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected(1200, 1600) - 1.0 / 11.0).abs() < 1e-12);
        for (a, b) in [(1000, 1500), (2100, 1900), (1200, 1201)] {
            assert!((expected(a, b) + expected(b, a) - 1.0).abs() < 1e-12);
        }
    }

    #[test]
    fn k_is_40_for_the_first_30_games_then_20() {
        assert_eq!(k_factor(0), 40.0);
        assert_eq!(k_factor(29), 40.0);
        assert_eq!(k_factor(30), 20.0);
        assert_eq!(k_factor(500), 20.0);
    }

    /// Figures worked out by hand (10^(x/400) from a table, then rounded).
    #[test]
    fn updates_match_hand_computed_values() {
        // Equal new players: E = 0.5, K = 40 → ±20, a draw moves nothing.
        assert_eq!(update(1200, 0, 1200, Score::Win), 1220);
        assert_eq!(update(1200, 0, 1200, Score::Loss), 1180);
        assert_eq!(update(1200, 0, 1200, Score::Draw), 1200);
        // 1400 (established, K = 20) draws 1200 (new, K = 40):
        // E(1400) = 1 / (1 + 10^-0.5) = 0.7597; 20 · (0.5 − 0.7597) = −5.19 → −5.
        assert_eq!(update(1400, 30, 1200, Score::Draw), 1395);
        // E(1200) = 0.2403; 40 · (0.5 − 0.2403) = +10.39 → +10.
        assert_eq!(update(1200, 3, 1400, Score::Draw), 1210);
        // The favourite 1600 beats 1200, both established: 20 · (1 − 10/11) = 1.82 → +2.
        assert_eq!(update(1600, 40, 1200, Score::Win), 1602);
        assert_eq!(update(1200, 40, 1600, Score::Loss), 1198);
        // The upset: 1200 beats 1600, K = 20: 20 · (1 − 1/11) = 18.18 → +18.
        assert_eq!(update(1200, 40, 1600, Score::Win), 1218);
        // 1500 vs 1450, new players: E(1500) = 1 / (1 + 10^-0.125) = 0.5715;
        // a loss: 40 · (0 − 0.5715) = −22.86 → −23.
        assert_eq!(update(1500, 0, 1450, Score::Loss), 1477);
    }

    #[test]
    fn results_read_as_scores() {
        assert_eq!(Score::from_result("1-0"), Some((Score::Win, Score::Loss)));
        assert_eq!(Score::from_result("0-1"), Some((Score::Loss, Score::Win)));
        assert_eq!(
            Score::from_result("1/2-1/2"),
            Some((Score::Draw, Score::Draw))
        );
        assert_eq!(Score::from_result("*"), None);
    }
}
