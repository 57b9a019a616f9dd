//! [`AnyGame`]: a game of any variant chosen at run time, spoken to in engine notation.

use ttakji_rules::{checkers, makruk, xiangqi, FenError, Position, Side, Variant};

use crate::{
    pgn::{self, Tags},
    CountAction, Counters, Game, GameError, Outcome, Rules,
};

/// A game of any of the three variants.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// A Makruk game.
    Makruk(Game<makruk::Position>),
    /// A Xiangqi game.
    Xiangqi(Game<xiangqi::Position>),
    /// A checkers game.
    Checkers(Game<checkers::Position>),
}

/// A move that was just played, in the notations the server and the client need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Engine notation (UCI, or PDN numbers with every landing for checkers).
    pub uci: String,
    /// Move-list notation (SAN-style, WXF, PDN).
    pub san: String,
    /// The ply number of the move (1 for the first move of the game).
    pub ply: usize,
}

macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Makruk($g) => $body,
            AnyGame::Xiangqi($g) => $body,
            AnyGame::Checkers($g) => $body,
        }
    };
}

fn play_uci<P: Rules>(
    game: &mut Game<P>,
    uci: &str,
    action: Option<CountAction>,
) -> Result<PlayedMove, GameError> {
    if game.outcome().is_some() {
        return Err(GameError::Finished);
    }
    let pos = game.position();
    let m = pos.parse_uci_among(uci, game.legal_moves())?;
    let (uci, san) = (pos.uci(m), pos.san(m));
    game.play(m, action)?;
    Ok(PlayedMove {
        uci,
        san,
        ply: game.ply(),
    })
}

impl AnyGame {
    /// A new game of `variant` from its start position.
    pub fn new(variant: Variant) -> AnyGame {
        match variant {
            Variant::Makruk => AnyGame::Makruk(Game::new()),
            Variant::Xiangqi => AnyGame::Xiangqi(Game::new()),
            Variant::Checkers => AnyGame::Checkers(Game::new()),
        }
    }

    /// A game of `variant` from a FEN (PDN FEN for checkers); see [`Game::from_fen`].
    pub fn from_fen(variant: Variant, fen: &str) -> Result<AnyGame, FenError> {
        Ok(match variant {
            Variant::Makruk => AnyGame::Makruk(Game::from_fen(fen)?),
            Variant::Xiangqi => AnyGame::Xiangqi(Game::from_fen(fen)?),
            Variant::Checkers => AnyGame::Checkers(Game::from_fen(fen)?),
        })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Makruk(_) => Variant::Makruk,
            AnyGame::Xiangqi(_) => Variant::Xiangqi,
            AnyGame::Checkers(_) => Variant::Checkers,
        }
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        each!(self, g => g.position().fen())
    }

    /// FEN of the start position of this game.
    pub fn initial_fen(&self) -> String {
        each!(self, g => g.initial().fen())
    }

    /// Whether the game started from the variant's standard start position.
    pub fn is_standard_start(&self) -> bool {
        fn standard<P: Rules>(g: &Game<P>) -> bool {
            *g.initial() == P::startpos()
        }
        each!(self, g => standard(g))
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        each!(self, g => g.position().turn())
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        each!(self, g => g.ply())
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        each!(self, g => g.position().is_check())
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }

    /// The legal moves of the side to move, in engine notation (none once the game is over).
    pub fn legal_moves(&self) -> Vec<String> {
        each!(self, g => {
            let pos = g.position();
            g.legal_moves().iter().map(|&m| pos.uci(m)).collect()
        })
    }

    /// The number of legal moves of the side to move (none once the game is over).
    pub fn legal_count(&self) -> usize {
        each!(self, g => g.legal_moves().len())
    }

    /// Calls `f` with each legal move of the side to move in engine notation (none once the
    /// game is over), through one reused buffer rather than a string per move; stops at the
    /// first error. Engine notation has only ASCII letters, digits, `x` and `-`.
    pub fn try_for_each_legal<E>(&self, mut f: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
        fn each<P: Rules, E>(
            g: &Game<P>,
            f: &mut impl FnMut(&str) -> Result<(), E>,
        ) -> Result<(), E> {
            let pos = g.position();
            let mut buf = String::with_capacity(16);
            for &m in g.legal_moves() {
                buf.clear();
                pos.push_uci(m, &mut buf);
                f(&buf)?;
            }
            Ok(())
        }
        each!(self, g => each(g, &mut f))
    }

    /// Plays a move given in engine notation, with an optional Makruk count action.
    /// On error nothing changes.
    pub fn play_uci(
        &mut self,
        uci: &str,
        action: Option<CountAction>,
    ) -> Result<PlayedMove, GameError> {
        each!(self, g => play_uci(g, uci, action))
    }

    /// Takes back the last ply; returns it in engine notation.
    pub fn undo(&mut self) -> Result<String, GameError> {
        each!(self, g => {
            let m = g.undo()?;
            Ok(g.position().uci(m))
        })
    }

    /// Ends the game by resignation, time out, agreement or abort.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), GameError> {
        each!(self, g => g.finish(outcome))
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Side) -> Result<(), GameError> {
        each!(self, g => g.resign(side))
    }

    /// The live counters under the board.
    pub fn counters(&self) -> Counters {
        each!(self, g => g.counters())
    }

    /// The moves played, in engine notation.
    pub fn moves_uci(&self) -> Vec<String> {
        each!(self, g => g.replay().map(|(before, p)| before.uci(p.mv)).collect())
    }

    /// The moves played, in move-list notation.
    pub fn moves_san(&self) -> Vec<String> {
        each!(self, g => g.replay().map(|(before, p)| before.san(p.mv)).collect())
    }

    /// The moves played, each in engine and move-list notation (one replay for both).
    pub fn moves_uci_san(&self) -> Vec<(String, String)> {
        each!(self, g => g.replay().map(|(before, p)| (before.uci(p.mv), before.san(p.mv))).collect())
    }

    /// The count action chosen with each move (Makruk), to store and replay a game exactly.
    pub fn actions(&self) -> Vec<Option<CountAction>> {
        each!(self, g => g.history().iter().map(|p| p.action).collect())
    }

    /// The game as a PGN (Makruk, Xiangqi) or PDN (checkers) record.
    pub fn to_record(&self, tags: &Tags) -> String {
        each!(self, g => pgn::write(g, tags))
    }
}
