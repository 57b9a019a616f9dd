//! Checkers evaluation: men and kings, the back rank kept as a guard against crowning,
//! advancement (tempo) that grows as the board empties, the centre, runaway men (a free path
//! to the crowning row), and a bonus for trading down when ahead.

use ttakji_rules::checkers::{Color, Move, Position, Role, Square};

use crate::EngineGame;

/// Every evaluation parameter of checkers, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// A man on its own back rank (a guard against enemy crowning).
    pub back_rank: i32,
    /// Extra for the two classic guard squares of the back rank (the "bridge").
    pub bridge: i32,
    /// A man by rank from its own side, with many pieces on the board.
    pub advance_opening: [i32; 8],
    /// A man by rank from its own side, with few pieces on the board.
    pub advance_endgame: [i32; 8],
    /// A man on the central squares.
    pub center_man: i32,
    /// A king per step towards the centre.
    pub king_center: i32,
    /// A man no enemy piece can stop from crowning, plus `runaway_rank` per rank advanced.
    pub runaway: i32,
    /// See `runaway`.
    pub runaway_rank: i32,
    /// When ahead: per man of lead, per piece fewer than 24 on the board.
    pub trade_down: i32,
    /// For the side to move.
    pub tempo: i32,
}

/// The parameters in use (hand-set starting values; see `examples/tune.rs`).
pub const PARAMS: Params = Params {
    man: 100,
    king: 140,
    back_rank: 6,
    bridge: 6,
    advance_opening: [0, 0, 1, 2, 3, 4, 6, 0],
    advance_endgame: [0, 2, 4, 7, 10, 14, 20, 0],
    center_man: 5,
    king_center: 4,
    runaway: 30,
    runaway_rank: 6,
    trade_down: 2,
    tempo: 3,
};

/// 0 on the rim, 3 in the middle.
fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df.min(dr)
}

fn relative_rank(sq: Square, color: Color) -> i32 {
    match color {
        Color::Black => sq.rank() as i32,
        Color::White => 7 - sq.rank() as i32,
    }
}

/// Whether a man of `color` on `sq` reaches its crowning row before any enemy piece can get
/// in its way (no enemy piece in the cone ahead of it, widened by one for the enemy's tempo).
fn runaway(pos: &Position, sq: Square, color: Color) -> bool {
    let (mf, mr) = (sq.file() as i32, relative_rank(sq, color));
    pos.by_color(color.other()).all(|e| {
        let (ef, er) = (e.file() as i32, relative_rank(e, color));
        er <= mr || (ef - mf).abs() > er - mr + 1
    })
}

fn black_score(pos: &Position, p: &Params) -> i32 {
    let total = pos.occupied().count() as i32;
    // 0 with a full board, 16 with 8 pieces or fewer.
    let phase = (24 - total).clamp(0, 16);
    let mut score = [0i32; 2];
    let mut mat = [0i32; 2];
    for color in Color::ALL {
        let us = color.index();
        let mut s = 0;
        for sq in pos.by_piece(color, Role::Man) {
            let rank = relative_rank(sq, color);
            s += p.man;
            s += (p.advance_opening[rank as usize] * (16 - phase)
                + p.advance_endgame[rank as usize] * phase)
                / 16;
            if rank == 0 {
                s += p.back_rank;
                // The bridge: squares 1 and 3 for Black, 30 and 32 for White.
                if matches!(
                    (color, sq.number()),
                    (Color::Black, 1 | 3) | (Color::White, 30 | 32)
                ) {
                    s += p.bridge;
                }
            }
            if (2..=5).contains(&sq.file()) && (3..=4).contains(&sq.rank()) {
                s += p.center_man;
            }
            if rank >= 3 && runaway(pos, sq, color) {
                s += p.runaway + p.runaway_rank * rank;
            }
        }
        for sq in pos.by_piece(color, Role::King) {
            s += p.king + p.king_center * centrality(sq);
        }
        mat[us] = p.man * pos.count(color, Role::Man) as i32
            + p.king * pos.count(color, Role::King) as i32;
        score[us] = s;
    }
    let lead = mat[0] - mat[1];
    let trade = lead.signum() * (lead.abs() / p.man.max(1)).min(4) * p.trade_down * (24 - total);
    score[0] - score[1] + trade
}

impl EngineGame for Position {
    type Acc = ();

    fn evaluate(pos: &Self, _state: &u32) -> i32 {
        with_params(|p| {
            let s = black_score(pos, p);
            let s = if pos.side_to_move() == Color::Black {
                s
            } else {
                -s
            };
            s + p.tempo
        })
    }

    fn capture_values(_pos: &Self, m: Move) -> (i32, i32) {
        if m.is_capture() {
            (
                100 * m.captured().count() as i32 + 40 * i32::from(m.is_crowning()),
                0,
            )
        } else {
            (0, 0)
        }
    }

    const PIECE_TO_KEYS: usize = 1 + 4 * 32;

    fn piece_to(pos: &Self, m: Move) -> u16 {
        pos.piece_at(m.from()).map_or(0, |p| {
            1 + ((p.color.index() * 2 + p.role as usize) * 32 + m.to().index()) as u16
        })
    }

    fn move_key(m: Move) -> u16 {
        1 + m.from().index() as u16 * 32 + m.to().index() as u16
    }

    fn state_key(state: &u32) -> u64 {
        // Only near the 40-move rule does the counter change results.
        if *state >= 60 {
            u64::from(*state).wrapping_mul(0xD6E8_FEB8_6659_FD93)
        } else {
            0
        }
    }

    fn may_end(_pos: &Self, state: &u32, has_moves: bool, _zeroing: bool) -> bool {
        !has_moves || *state >= 80
    }

    const FORCED_CAPTURES: bool = true;
}

crate::eval::tunable!(Params {
    arrays: [advance_opening, advance_endgame],
    scalars: [
        man,
        king,
        back_rank,
        bridge,
        center_man,
        king_center,
        runaway,
        runaway_rank,
        trade_down,
        tempo
    ]
});
