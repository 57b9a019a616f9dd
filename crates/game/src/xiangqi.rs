//! Xiangqi's result rules: no legal move loses (mate or stalemate), perpetual check loses,
//! and a board with no chariot, horse, cannon or soldier left is a draw (SPEC §3).

use ttakji_rules::{
    xiangqi::{Color, Position, Role},
    Position as _,
};

use crate::{CountAction, Counters, GameError, Outcome, Reason, Rules};

fn has_attackers(pos: &Position) -> bool {
    [Color::Red, Color::Black].into_iter().any(|color| {
        [Role::Chariot, Role::Horse, Role::Cannon, Role::Soldier]
            .into_iter()
            .any(|role| pos.count(color, role) > 0)
    })
}

impl Rules for Position {
    type State = ();
    const PLY_LIMIT: usize = 300;
    const PERPETUAL_CHECK_LOSES: bool = true;

    fn initial_state(_pos: &Self) {}

    fn update(
        _state: &mut (),
        _before: &Self,
        _m: Self::Move,
        _after: &Self,
        action: Option<CountAction>,
    ) -> Result<(), GameError> {
        match action {
            None => Ok(()),
            Some(_) => Err(GameError::Count("there is no counting in Xiangqi")),
        }
    }

    fn adjudicate(pos: &Self, _state: &(), _prev: Option<&()>, has_moves: bool) -> Option<Outcome> {
        let mover = pos.turn().other();
        if !has_moves {
            let reason = if pos.is_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome::win(mover, reason));
        }
        if !has_attackers(pos) {
            return Some(Outcome::draw(Reason::NoAttackers));
        }
        None
    }

    fn record_san(&self, m: Self::Move) -> String {
        fsf_san(self, m)
    }

    fn counters(_pos: &Self, _state: &(), _counters: &mut Counters) {}
}

/// Fairy-Stockfish's SAN for Xiangqi (`Ce3`, `Hxc3+`, `Rha2`), which PGN tools of pychess and
/// Fairy-Stockfish read: the piece letter (soldiers too), file/rank/square disambiguation
/// among same pieces that can reach the square, `x`, the destination, `+` or `#`.
pub(crate) fn fsf_san(pos: &Position, m: <Position as ttakji_rules::Position>::Move) -> String {
    let Some(piece) = pos.piece_at(m.from()) else {
        return pos.uci(m);
    };
    let letter = match piece.role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'B',
        Role::Horse => 'N',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    };
    let name = |sq: String| -> (String, String) {
        let (file, rank) = sq.split_at(1.min(sq.len()));
        (file.to_owned(), rank.to_owned())
    };
    let (from_file, from_rank) = name(m.from().to_string());
    let mut moves = ttakji_rules::MoveList::new();
    pos.legal_moves(&mut moves);
    let others: Vec<(String, String)> = moves
        .iter()
        .filter(|o| {
            o.to() == m.to() && o.from() != m.from() && pos.piece_at(o.from()) == Some(piece)
        })
        .map(|o| name(o.from().to_string()))
        .collect();
    let mut san = String::new();
    san.push(letter);
    if !others.is_empty() {
        if others.iter().all(|(f, _)| *f != from_file) {
            san.push_str(&from_file);
        } else if others.iter().all(|(_, r)| *r != from_rank) {
            san.push_str(&from_rank);
        } else {
            san.push_str(&from_file);
            san.push_str(&from_rank);
        }
    }
    if pos.is_capture(m) {
        san.push('x');
    }
    san.push_str(&m.to().to_string());
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_check() {
        san.push(if after.count_legal_moves() == 0 {
            '#'
        } else {
            '+'
        });
    }
    san
}
