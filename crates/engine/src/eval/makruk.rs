//! Makruk evaluation: material, piece-square terms (centralisation, advancement, Bia ranks),
//! Rua and Ma mobility, Bia chains, Khun shelter in the middle game, and a mop-up term that
//! drives a bare or nearly bare Khun to a corner and brings the stronger side's Khun and
//! short-range pieces next to it once the Bia are gone (mating inside the count needs it:
//! Mets and Khons only mate from next to the Khun).

use ttakji_game::{CountAction, CountKind, MakrukState};
use ttakji_rules::makruk::{Color, Move, Position, Role, Square};

use crate::EngineGame;

/// Every evaluation parameter of Makruk, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material by role: Khun, Met (and Bia ngai), Khon, Ma, Rua, Bia.
    pub value: [i32; 6],
    /// Bonus per step towards the centre (0 on the rim, 3 in the middle four), by role.
    pub center: [i32; 6],
    /// A Bia by rank counted from its own side (it starts on 2 and promotes on 5).
    pub bia_rank: [i32; 8],
    /// A Bia defended by another Bia.
    pub bia_chain: i32,
    /// Per square a Rua reaches.
    pub rua_mobility: i32,
    /// Per square a Ma reaches that holds no own piece.
    pub ma_mobility: i32,
    /// Per own piece next to the Khun while the opponent still has a Rua.
    pub khun_shelter: i32,
    /// Per enemy piece within two squares of the Khun while the opponent still has a Rua.
    pub khun_attackers: i32,
    /// Khun centralisation once little material is left (per step).
    pub khun_center_endgame: i32,
    /// Mop-up: per step the weaker Khun is from the centre.
    pub mopup_edge: i32,
    /// Mop-up: per step the Khuns are closer than 7.
    pub mopup_close: i32,
    /// Mop-up: per step a short-range piece (Met, Khon, Ma) of the stronger side is closer
    /// than 7 to the weaker Khun: Mets and Khons only mate from next to it.
    pub mopup_helper: i32,
    /// Material lead (without Bia on the board) from which mop-up applies.
    pub mopup_margin: i32,
    /// For the side to move.
    pub tempo: i32,
}

/// The parameters in use: still the hand-set starting values. Texel tuning on 113 000
/// positions from 560 self-play games (`examples/texel.rs`) lowered the error on its
/// training positions but not on held-out games, and the tuned table lost an A/B match
/// (docs/benchmarks.md), so it was not kept.
pub const PARAMS: Params = HAND_SET;

/// The hand-set starting values, kept to measure tuned parameters against
/// (`examples/match.rs`, suffix `/old`).
pub const HAND_SET: Params = Params {
    value: [0, 190, 250, 330, 520, 100],
    center: [0, 4, 5, 8, 2, 0],
    bia_rank: [0, 0, 0, 10, 25, 0, 0, 0],
    bia_chain: 6,
    rua_mobility: 3,
    ma_mobility: 3,
    khun_shelter: 5,
    khun_attackers: 8,
    khun_center_endgame: 6,
    mopup_edge: 12,
    mopup_close: 5,
    mopup_helper: 4,
    mopup_margin: 150,
    tempo: 10,
};

/// 0 on the rim, 3 on the four centre squares.
fn centrality(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df.min(dr)
}

fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

const MA_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn offset(sq: Square, df: i32, dr: i32) -> Option<Square> {
    let f = sq.file() as i32 + df;
    let r = sq.rank() as i32 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Square::new(f as u32, r as u32)
    } else {
        None
    }
}

/// Material of `color` without the Khun, at the values in use ([`PARAMS`]).
pub fn material(pos: &Position, color: Color) -> i32 {
    material_with(pos, color, &PARAMS)
}

fn material_with(pos: &Position, color: Color, p: &Params) -> i32 {
    [Role::Met, Role::Khon, Role::Ma, Role::Rua, Role::Bia]
        .into_iter()
        .map(|r| p.value[r.index()] * pos.count(color, r) as i32)
        .sum()
}

/// The evaluation from White's point of view, without tempo.
fn white_score(pos: &Position, p: &Params) -> i32 {
    let mut mat = [0i32; 2];
    let mut rua = [0u32; 2];
    for color in Color::ALL {
        mat[color.index()] = material_with(pos, color, p);
        rua[color.index()] = pos.count(color, Role::Rua);
    }
    let bia_left = !pos.by_role(Role::Bia).is_empty();
    let heavy = mat[0] + mat[1];
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let us = color.index();
        let mut s = mat[us];
        for role in [Role::Met, Role::Khon, Role::Ma, Role::Rua, Role::Bia] {
            for sq in pos.bitboard(color, role) {
                s += p.center[role.index()] * centrality(sq);
                match role {
                    Role::Bia => {
                        s += p.bia_rank[sq.relative_rank(color) as usize];
                        let back = if color == Color::White { -1 } else { 1 };
                        for df in [-1, 1] {
                            if let Some(d) = offset(sq, df, back) {
                                if pos
                                    .piece_at(d)
                                    .is_some_and(|x| x.color == color && x.role == Role::Bia)
                                {
                                    s += p.bia_chain;
                                }
                            }
                        }
                    }
                    Role::Ma => {
                        for (df, dr) in MA_JUMPS {
                            if let Some(t) = offset(sq, df, dr) {
                                if pos.piece_at(t).is_none_or(|x| x.color != color) {
                                    s += p.ma_mobility;
                                }
                            }
                        }
                    }
                    Role::Rua => {
                        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                            let mut cur = sq;
                            while let Some(t) = offset(cur, df, dr) {
                                match pos.piece_at(t) {
                                    None => s += p.rua_mobility,
                                    Some(x) => {
                                        if x.color != color {
                                            s += p.rua_mobility;
                                        }
                                        break;
                                    }
                                }
                                cur = t;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        let khun = pos.khun(color);
        if rua[1 - us] > 0 && heavy > 1600 {
            for df in -2..=2 {
                for dr in -2..=2 {
                    if let Some(t) = offset(khun, df, dr) {
                        if let Some(x) = pos.piece_at(t) {
                            let near = df.abs() <= 1 && dr.abs() <= 1;
                            if x.color == color && near && x.role != Role::Khun {
                                s += p.khun_shelter;
                            } else if x.color != color && x.role != Role::Khun {
                                s -= p.khun_attackers;
                            }
                        }
                    }
                }
            }
        } else if heavy < 1400 {
            s += p.khun_center_endgame * centrality(khun);
        }
        score[us] = s;
    }
    let mut total = score[0] - score[1];
    if !bia_left && (mat[0] - mat[1]).abs() >= p.mopup_margin {
        let (strong, weak) = if mat[0] > mat[1] {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let wk = pos.khun(weak);
        let sk = pos.khun(strong);
        let corner = {
            let f = wk.file() as i32;
            let r = wk.rank() as i32;
            (f.min(7 - f) + r.min(7 - r)).min(6)
        };
        let helpers: i32 = [Role::Met, Role::Khon, Role::Ma]
            .into_iter()
            .flat_map(|r| pos.bitboard(strong, r))
            .map(|sq| 7 - chebyshev(sq, wk))
            .sum();
        let bonus = p.mopup_edge * (3 - centrality(wk))
            + p.mopup_edge * (6 - corner)
            + p.mopup_close * (7 - chebyshev(wk, sk))
            + p.mopup_helper * helpers;
        total += if strong == Color::White {
            bonus
        } else {
            -bonus
        };
    }
    total
}

/// Role values for exchanges: the Khun can only capture last.
const SEE_VALUE: [i32; 6] = [10_000, 190, 250, 330, 520, 100];

/// The least valuable piece of `color` among `occ` that attacks `sq` (pins ignored).
fn least_attacker(pos: &Position, sq: Square, color: Color, occ: u64) -> Option<(Square, Role)> {
    let ours = |s: Square, role: Role| {
        occ & (1 << s.index()) != 0
            && pos
                .piece_at(s)
                .is_some_and(|p| p.color == color && p.role == role)
    };
    let find = |steps: &[(i32, i32)], role: Role| {
        steps
            .iter()
            .filter_map(|&(df, dr)| offset(sq, df, dr))
            .find(|&s| ours(s, role))
            .map(|s| (s, role))
    };
    // A Bia or a Khon attacks forward, so it stands one rank behind `sq` from its side.
    let back = if color == Color::White { -1 } else { 1 };
    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    const AROUND: [(i32, i32); 8] = [
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
    ];
    if let Some(a) = find(&[(-1, back), (1, back)], Role::Bia) {
        return Some(a);
    }
    if let Some(a) = find(&DIAGONAL, Role::Met) {
        return Some(a);
    }
    if let Some(a) = find(&DIAGONAL, Role::Khon).or_else(|| find(&[(0, back)], Role::Khon)) {
        return Some(a);
    }
    if let Some(a) = find(&MA_JUMPS, Role::Ma) {
        return Some(a);
    }
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let mut cur = sq;
        while let Some(t) = offset(cur, df, dr) {
            if occ & (1 << t.index()) != 0 {
                if ours(t, Role::Rua) {
                    return Some((t, Role::Rua));
                }
                break;
            }
            cur = t;
        }
    }
    find(&AROUND, Role::Khun)
}

/// Static exchange evaluation of `m` (see [`EngineGame::see`]).
fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let Some(mover) = pos.piece_at(m.from()) else {
        return 0;
    };
    let mut gain = [0i32; 34];
    gain[0] = pos.piece_at(to).map_or(0, |p| SEE_VALUE[p.role.index()]);
    // The piece standing on `to` after each capture, and its value.
    let mut on_square = if m.is_promotion() {
        gain[0] += SEE_VALUE[Role::Met.index()] - SEE_VALUE[Role::Bia.index()];
        SEE_VALUE[Role::Met.index()]
    } else {
        SEE_VALUE[mover.role.index()]
    };
    let mut occ = pos.occupied().0 & !(1 << m.from().index());
    let mut color = mover.color.other();
    // gain[d]: what the side making the d-th capture has won if the exchange stops there.
    let mut d = 0;
    while let Some((from, role)) = least_attacker(pos, to, color, occ) {
        if d + 1 >= gain.len() {
            break;
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        on_square = SEE_VALUE[role.index()];
        occ &= !(1 << from.index());
        color = color.other();
    }
    // Each side may stop instead of capturing.
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

impl EngineGame for Position {
    fn see(pos: &Self, m: Move) -> Option<i32> {
        Some(see(pos, m))
    }

    fn evaluate(pos: &Self, _state: &MakrukState) -> i32 {
        with_params(|p| {
            let s = white_score(pos, p);
            let s = if pos.side_to_move() == Color::White {
                s
            } else {
                -s
            };
            s + p.tempo
        })
    }

    fn capture_values(pos: &Self, m: Move) -> (i32, i32) {
        let victim = pos
            .piece_at(m.to())
            .map_or(0, |p| PARAMS.value[p.role.index()]);
        let victim = victim + if m.is_promotion() { 90 } else { 0 };
        let attacker = pos
            .piece_at(m.from())
            .map_or(0, |p| PARAMS.value[p.role.index()]);
        (victim, attacker)
    }

    fn move_key(m: Move) -> u16 {
        1 + m.from() as u16 * 64 + m.to() as u16
    }

    const PIECE_TO_KEYS: usize = 1 + 12 * 64;

    fn piece_to(pos: &Self, m: Move) -> u16 {
        pos.piece_at(m.from()).map_or(0, |p| {
            1 + ((p.color.index() * 6 + p.role.index()) * 64 + m.to() as usize) as u16
        })
    }

    fn stalemate_possible(pos: &Self) -> bool {
        // Only the Khun, Bia and at most one other piece: they can all be blocked.
        let us = pos.side_to_move();
        let others = pos.by_color(us).0 & !pos.by_role(Role::Khun).0 & !pos.by_role(Role::Bia).0;
        others.count_ones() <= 1
    }

    fn null_move_ok(pos: &Self) -> bool {
        // Zugzwang is real in Makruk endgames: only with a Rua, or two other pieces besides
        // Bia, on the side to move.
        let us = pos.side_to_move();
        pos.count(us, Role::Rua) > 0 || pos.count(us, Role::Ma) + pos.count(us, Role::Khon) >= 2
    }

    fn state_key(state: &MakrukState) -> u64 {
        match state.count {
            None => 0,
            Some(c) => {
                let kind = match c.kind {
                    CountKind::Board => 1u64,
                    CountKind::Piece => 2,
                };
                let v = kind
                    | (c.side.index() as u64) << 2
                    | u64::from(c.count) << 3
                    | u64::from(c.limit) << 16;
                v.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)
            }
        }
    }

    fn count_action(pos: &Self, state: &MakrukState) -> Option<CountAction> {
        let us = pos.side_to_move();
        match state.count {
            None => {
                if !pos.by_role(Role::Bia).is_empty() {
                    return None;
                }
                let (ours, theirs) = (material(pos, us), material(pos, us.other()));
                // Board counting needs a piece besides the Khun on both sides (else piece
                // counting runs by itself). The side that is behind starts it: mate by the
                // other side must then come within 64 moves.
                (ours > 0 && theirs > 0 && ours < theirs).then_some(CountAction::Start)
            }
            Some(c) if c.kind == CountKind::Board && c.side == us.into() => {
                // Our own count, and now we are the stronger side: stop it, so that a mate
                // later wins.
                (material(pos, us) > material(pos, us.other()) + 100).then_some(CountAction::Stop)
            }
            _ => None,
        }
    }

    fn may_end(_pos: &Self, state: &MakrukState, has_moves: bool, zeroing: bool) -> bool {
        !has_moves || zeroing || state.count.is_some()
    }
}

crate::eval::tunable!(Params {
    arrays: [value, center, bia_rank],
    scalars: [
        bia_chain,
        rua_mobility,
        ma_mobility,
        khun_shelter,
        khun_attackers,
        khun_center_endgame,
        mopup_edge,
        mopup_close,
        mopup_helper,
        mopup_margin,
        tempo
    ]
});
