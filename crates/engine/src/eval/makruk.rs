//! Makruk evaluation. By default a network ([`default_net`], `crate::nnue`) judges every
//! position but the mop-up endings; the hand-written terms judge those, and every position
//! when a thread asks for them (`nnue::NetChoice::Hand`): material, piece-square terms
//! (centralisation, advancement, Bia ranks), Rua and Ma mobility, Bia chains, Khun shelter in
//! the middle game, and a mop-up term that drives a bare or nearly bare Khun to a corner and
//! brings the stronger side's Khun and short-range pieces next to it once the Bia are gone
//! (mating inside the count needs it: Mets and Khons only mate from next to the Khun).

use std::sync::OnceLock;

use arrayvec::ArrayVec;
use ttakji_game::{CountAction, CountKind, MakrukState};
use ttakji_rules::makruk::{attacks, Bitboard, Color, Move, Piece, Position, Role, Square};

use crate::nnue::{self, View};
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
    /// Per Rua on a file without own Bia.
    pub rua_semi_open: i32,
    /// Per Rua on a file without any Bia (on top of `rua_semi_open`).
    pub rua_open: i32,
    /// Per Ma defended by an own Bia (so on its fourth to sixth rank) that no enemy Bia
    /// attacks or can come to attack (none ahead of it on a neighbouring file).
    pub ma_outpost: i32,
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
    /// Threats (session 13, after Fairy-Stockfish's classical evaluation): per enemy piece,
    /// by its role, that our Met, Khon or Ma attacks while it is weak (attacked and not
    /// strongly protected: by a Bia, or twice and not twice by us) or a defended piece
    /// other than a Bia.
    pub threat_by_minor: [i32; 6],
    /// Per weak enemy piece, by its role, that our Rua attacks.
    pub threat_by_rua: [i32; 6],
    /// Per enemy piece other than a Bia that a Bia of ours attacks from a square the enemy
    /// does not attack or we defend.
    pub threat_by_bia: i32,
    /// Per weak enemy piece that nothing of theirs defends, or (other than a Bia) that we
    /// attack twice.
    pub hanging: i32,
    /// Per weak enemy piece our Khun attacks.
    pub threat_by_khun: i32,
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
    rua_semi_open: 0,
    rua_open: 0,
    ma_outpost: 0,
    khun_shelter: 5,
    khun_attackers: 8,
    khun_center_endgame: 6,
    mopup_edge: 12,
    mopup_close: 5,
    mopup_helper: 4,
    mopup_margin: 150,
    tempo: 10,
    threat_by_minor: [0; 6],
    threat_by_rua: [0; 6],
    threat_by_bia: 0,
    hanging: 0,
    threat_by_khun: 0,
};

/// [`PARAMS`] with the threat terms on (session 13, `examples/match.rs` suffix `/th`):
/// Fairy-Stockfish's classical values for chess (`ThreatByMinor`, `ThreatByRook`, `Hanging`,
/// `ThreatBySafePawn`, `ThreatByKing`, middle game and endgame averaged, in our centipawns),
/// the victims mapped by value (Met and Khon as a knight or bishop, Ma as a bishop, Rua as
/// a rook).
pub const THREATS: Params = Params {
    threat_by_minor: [0, 30, 35, 45, 65, 5],
    threat_by_rua: [0, 30, 30, 35, 15, 15],
    threat_by_bia: 80,
    hanging: 35,
    threat_by_khun: 30,
    ..PARAMS
};

impl Params {
    /// Whether any threat term is on (else their attack maps are not computed).
    fn threats_on(&self) -> bool {
        self.threat_by_minor.iter().any(|&x| x != 0)
            || self.threat_by_rua.iter().any(|&x| x != 0)
            || self.threat_by_bia != 0
            || self.hanging != 0
            || self.threat_by_khun != 0
    }
}

/// 0 on the rim, 3 on the four centre squares.
fn centrality(sq: Square) -> i32 {
    CENTRALITY[sq.index()]
}

/// [`centrality`] of every square.
const CENTRALITY: [i32; 64] = {
    let mut t = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (f, r) = ((i % 8) as i32, (i / 8) as i32);
        let df = if f < 4 { f } else { 7 - f };
        let dr = if r < 4 { r } else { 7 - r };
        t[i] = if df < dr { df } else { dr };
        i += 1;
    }
    t
};

/// For every square, the squares within two steps (itself included): where enemy pieces
/// press on a Khun.
const KHUN_ZONE: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (f, r) = ((i % 8) as i32, (i / 8) as i32);
        let mut j: i32 = 0;
        while j < 64 {
            let (g, q) = (j % 8, j / 8);
            if (g - f).abs() <= 2 && (q - r).abs() <= 2 {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The squares on the files next to `sq`'s, on the ranks ahead of it for `color`: where an
/// enemy Bia attacks `sq` from, or could walk to and attack it.
fn outpost_front(color: Color, sq: Square) -> u64 {
    let f = sq.file();
    // `file(u32::MAX)` (left of the a-file) and `file(8)` are empty.
    let sides = Bitboard::file(f.wrapping_sub(1)).0 | Bitboard::file(f + 1).0;
    let r = sq.rank();
    let ahead = match color {
        Color::White => u64::MAX.checked_shl(8 * (r + 1)).unwrap_or(0),
        Color::Black => (1u64 << (8 * r)) - 1,
    };
    sides & ahead
}

fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// What one side attacks, by kind of attacker.
#[derive(Clone, Copy, Default)]
struct Attacks {
    bia: u64,
    /// Met, Khon and Ma.
    minor: u64,
    rua: u64,
    khun: u64,
    all: u64,
    /// Attacked at least twice.
    twice: u64,
}

impl Attacks {
    fn of(pos: &Position, color: Color) -> Attacks {
        let occ = pos.occupied();
        let mut a = Attacks::default();
        let add = |a: &mut Attacks, x: u64| {
            a.twice |= a.all & x;
            a.all |= x;
        };
        for sq in pos.bitboard(color, Role::Bia) {
            let x = attacks::bia(color, sq).0;
            a.bia |= x;
            add(&mut a, x);
        }
        for (role, table) in [
            (Role::Met, attacks::met as fn(Square) -> Bitboard),
            (Role::Ma, attacks::ma),
        ] {
            for sq in pos.bitboard(color, role) {
                let x = table(sq).0;
                a.minor |= x;
                add(&mut a, x);
            }
        }
        for sq in pos.bitboard(color, Role::Khon) {
            let x = attacks::khon(color, sq).0;
            a.minor |= x;
            add(&mut a, x);
        }
        for sq in pos.bitboard(color, Role::Rua) {
            let x = attacks::rua(sq, occ).0;
            a.rua |= x;
            add(&mut a, x);
        }
        let x = attacks::khun(pos.khun(color)).0;
        a.khun = x;
        add(&mut a, x);
        a
    }
}

/// The threats of `us` against the other side's pieces (Fairy-Stockfish's classical
/// `threats`, without the Bia-push and restriction terms).
fn threats(pos: &Position, us: Color, ours: &Attacks, theirs: &Attacks, p: &Params) -> i32 {
    let them = us.other();
    let their_pieces = pos.by_color(them).0 & !(1 << pos.khun(them).index());
    let non_bia = their_pieces & !pos.by_role(Role::Bia).0;
    let strongly_protected = theirs.bia | (theirs.twice & !ours.twice);
    let defended = non_bia & strongly_protected;
    let weak = their_pieces & !strongly_protected & ours.all;
    let role_at = |sq: Square| pos.piece_at(sq).map_or(0, |x| x.role.index());
    let mut s = 0;
    for sq in ttakji_rules::makruk::Bitboard((defended | weak) & ours.minor) {
        s += p.threat_by_minor[role_at(sq)];
    }
    for sq in ttakji_rules::makruk::Bitboard(weak & ours.rua) {
        s += p.threat_by_rua[role_at(sq)];
    }
    if weak & ours.khun != 0 {
        s += p.threat_by_khun;
    }
    let loose = !theirs.all | (non_bia & ours.twice);
    s += p.hanging * (weak & loose).count_ones() as i32;
    let safe = !theirs.all | ours.all;
    let mut bia_hits = 0;
    for sq in pos.bitboard(us, Role::Bia) {
        if safe & (1 << sq.index()) != 0 {
            bia_hits |= attacks::bia(us, sq).0;
        }
    }
    s += p.threat_by_bia * (bia_hits & non_bia).count_ones() as i32;
    s
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
    let occ = pos.occupied();
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let us = color.index();
        let own = pos.by_color(color).0;
        let mut s = mat[us];
        for role in [Role::Met, Role::Khon, Role::Ma, Role::Rua, Role::Bia] {
            let c = p.center[role.index()];
            if c != 0 {
                s += c * pos.bitboard(color, role).map(centrality).sum::<i32>();
            }
        }
        let bia = pos.bitboard(color, Role::Bia);
        for sq in bia {
            s += p.bia_rank[sq.relative_rank(color) as usize];
            // Own Bia diagonally behind: where an enemy Bia on `sq` would capture.
            let behind = attacks::bia(color.other(), sq).0 & bia.0;
            s += p.bia_chain * behind.count_ones() as i32;
        }
        let their_bia = pos.bitboard(color.other(), Role::Bia).0;
        for sq in pos.bitboard(color, Role::Ma) {
            s += p.ma_mobility * (attacks::ma(sq).0 & !own).count_ones() as i32;
            if p.ma_outpost != 0
                && attacks::bia(color.other(), sq).0 & bia.0 != 0
                && outpost_front(color, sq) & their_bia == 0
            {
                s += p.ma_outpost;
            }
        }
        for sq in pos.bitboard(color, Role::Rua) {
            s += p.rua_mobility * (attacks::rua(sq, occ).0 & !own).count_ones() as i32;
            let file = Bitboard::file(sq.file()).0;
            if file & bia.0 == 0 {
                s += p.rua_semi_open;
                if file & their_bia == 0 {
                    s += p.rua_open;
                }
            }
        }
        let khun = pos.khun(color);
        if rua[1 - us] > 0 && heavy > 1600 {
            let khuns = pos.by_role(Role::Khun).0;
            let shelter = attacks::khun(khun).0 & own & !khuns;
            let attackers = KHUN_ZONE[khun.index()] & !own & occ.0 & !khuns;
            s += p.khun_shelter * shelter.count_ones() as i32;
            s -= p.khun_attackers * attackers.count_ones() as i32;
        } else if heavy < 1400 {
            s += p.khun_center_endgame * centrality(khun);
        }
        score[us] = s;
    }
    let mut total = score[0] - score[1];
    if p.threats_on() {
        let att = [
            Attacks::of(pos, Color::White),
            Attacks::of(pos, Color::Black),
        ];
        total += threats(pos, Color::White, &att[0], &att[1], p)
            - threats(pos, Color::Black, &att[1], &att[0], p);
    }
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

/// Inputs of Makruk's network: the piece's colour (the viewer's first), its role (Khun, Met,
/// Khon, Ma, Rua, Bia) and its square as the viewer sees the board.
pub const NET_INPUTS: usize = 2 * 6 * 64;

/// Makruk's own network, which threads evaluate with unless told otherwise
/// ([`nnue::set_thread_net`]): trained on a million positions of its predecessor's self-play,
/// each scored by a 3 000-node search of Fairy-Stockfish and learnt also mirrored left to
/// right (docs/benchmarks.md, Search, session 44). `None` only if the embedded file were
/// damaged, which a test rules out.
pub fn default_net() -> Option<&'static nnue::Network> {
    static NET: OnceLock<Option<nnue::Network>> = OnceLock::new();
    nnue::Network::embedded(&NET, include_bytes!("../../nets/makruk.net"), NET_INPUTS)
}

/// The network's active inputs for `pos` seen by `viewer`. Black sees the board turned half
/// a turn: the setup is symmetric under that turn (Khun d1 against e8), not under a mirror.
pub fn net_inputs(pos: &Position, viewer: Color) -> ArrayVec<u16, 32> {
    let mut v = ArrayVec::new();
    for (sq, piece) in pos.pieces() {
        // At most 32 pieces: 16 a side, and a promotion replaces its Bia.
        let _ = v.try_push(net_input(sq, piece, viewer));
    }
    v
}

/// The network's input for `piece` on `sq` seen by `viewer`.
#[inline]
fn net_input(sq: Square, piece: Piece, viewer: Color) -> u16 {
    let theirs = usize::from(piece.color != viewer);
    let sq = if viewer == Color::White {
        sq.index()
    } else {
        63 - sq.index()
    };
    ((theirs * 6 + piece.role.index()) * 64 + sq) as u16
}

/// Whether the hand-written evaluation decides `pos` even with a network: a Bia-less ending
/// with a material lead, where the mop-up terms drive the mate inside the count.
fn mop_up(pos: &Position) -> bool {
    pos.by_role(Role::Bia).is_empty()
        && (material(pos, Color::White) - material(pos, Color::Black)).abs() >= PARAMS.mopup_margin
}

/// The score of the network this thread evaluates with ([`nnue::set_thread_net`], by
/// default [`default_net`]) for the side to move, or `None` where the hand-written
/// evaluation decides: when the thread asks for it, and in a mop-up ending ([`mop_up`]).
fn net_score(pos: &Position) -> Option<i32> {
    nnue::with_net(default_net(), |net| {
        let us = pos.side_to_move();
        (!mop_up(pos)).then(|| net.evaluate(&net_inputs(pos, us), &net_inputs(pos, us.other())))
    })
    .flatten()
}

/// The colours whose views of the board the network's sums are kept for, in order.
const VIEWERS: [Color; 2] = [Color::White, Color::Black];

/// The network's sums from White's and Black's points of view, if this thread evaluates
/// with one.
fn net_views(pos: &Position) -> Option<[View; 2]> {
    nnue::with_net(default_net(), |net| {
        VIEWERS.map(|viewer| View::new(net, &net_inputs(pos, viewer)))
    })
}

/// Role values for exchanges: the Khun can only capture last.
const SEE_VALUE: [i32; 6] = [10_000, 190, 250, 330, 520, 100];

/// Exchange order: the least valuable attacker captures first.
const CHEAPEST_FIRST: [Role; 6] = [
    Role::Bia,
    Role::Met,
    Role::Khon,
    Role::Ma,
    Role::Rua,
    Role::Khun,
];

/// What the first capture of `m` wins (a promotion adds the Met's worth over the Bia's), and
/// the value of what then stands on the target square.
fn first_capture(pos: &Position, m: Move, mover: Role) -> (i32, i32) {
    let victim = pos
        .piece_at(m.to())
        .map_or(0, |p| SEE_VALUE[p.role.index()]);
    if m.is_promotion() {
        let met = SEE_VALUE[Role::Met.index()];
        (victim + met - SEE_VALUE[Role::Bia.index()], met)
    } else {
        (victim, SEE_VALUE[mover.index()])
    }
}

/// Static exchange evaluation of `m` (see [`EngineGame::see`]): the cheapest attacker of
/// either side captures in turn on the target square, pins ignored, a Rua's x-rays seen as
/// the pieces in front of it go.
fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let Some(mover) = pos.piece_at(m.from()) else {
        return 0;
    };
    // The value of the piece standing on `to` after each capture.
    let (first, mut on_square) = first_capture(pos, m, mover.role);
    let mut gain = [0i32; 34];
    gain[0] = first;
    let mut occ = pos.occupied().0 & !(1 << m.from().index());
    let mut color = mover.color.other();
    // gain[d]: what the side making the d-th capture has won if the exchange stops there.
    let mut d = 0;
    while d + 1 < gain.len() {
        let attackers = pos.attackers(to, color, Bitboard(occ)).0;
        let Some((from, role)) = CHEAPEST_FIRST.into_iter().find_map(|role| {
            let b = attackers & pos.by_role(role).0;
            (b != 0).then(|| (b & b.wrapping_neg(), role))
        }) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        on_square = SEE_VALUE[role.index()];
        occ &= !from;
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
    /// The network's sums by viewer (White's first), while the thread evaluates with one.
    type Acc = Option<[View; 2]>;

    fn acc_new(pos: &Self) -> Self::Acc {
        net_views(pos)
    }

    fn acc_update(acc: &mut Self::Acc, before: &Self, m: Move, after: &Self) {
        let Some(views) = acc else {
            return;
        };
        // A move lifts its piece (and what it takes) and sets down what stands on its
        // target afterwards: the same piece, or the Met a Bia promotes to.
        let (from, to) = (m.from(), m.to());
        let lifted = [from, to].map(|sq| before.piece_at(sq).map(|p| (sq, p)));
        let set = after.piece_at(to).map(|p| (to, p));
        let updated = nnue::with_net(default_net(), |net| {
            nnue::move_views(net, views, lifted, set, |(sq, p), c| {
                net_input(sq, p, VIEWERS[c])
            })
        });
        if updated.is_none() {
            // The thread evaluates by hand now: no sums to carry.
            *acc = None;
        }
    }

    fn evaluate_with(pos: &Self, state: &MakrukState, acc: &Self::Acc) -> i32 {
        let us = pos.side_to_move().index();
        match acc {
            Some(views) if !mop_up(pos) => {
                nnue::with_net(default_net(), |net| net.output(&views[us], &views[1 - us]))
                    .unwrap_or_else(|| Self::evaluate(pos, state))
            }
            _ => Self::evaluate(pos, state),
        }
    }

    fn see(pos: &Self, m: Move) -> Option<i32> {
        Some(see(pos, m))
    }

    fn see_ge(pos: &Self, m: Move, threshold: i32) -> bool {
        // The exchange wins at most the first capture, and loses at most the piece that
        // made it: against those bounds most moves need no exchange played out.
        let Some(mover) = pos.piece_at(m.from()) else {
            return 0 >= threshold;
        };
        let (won, exposed) = first_capture(pos, m, mover.role);
        if won < threshold {
            false
        } else if won - exposed >= threshold {
            true
        } else {
            see(pos, m) >= threshold
        }
    }

    fn evaluate(pos: &Self, _state: &MakrukState) -> i32 {
        if let Some(s) = net_score(pos) {
            return s;
        }
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

    fn structure_key(pos: &Self) -> u64 {
        // Where the Bia stand, and how many pieces of each kind each side has.
        let mut h = 0u64;
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            h = h.wrapping_add(
                super::mix(pos.bitboard(color, Role::Bia).0).rotate_left(32 * i as u32),
            );
            for role in [Role::Met, Role::Khon, Role::Ma, Role::Rua] {
                let n = u64::from(pos.count(color, role));
                h = h.wrapping_add(super::mix(
                    (1 << 40) | (i as u64) << 8 | (role.index() as u64) << 4 | n,
                ));
            }
        }
        h
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
    arrays: [value, center, bia_rank, threat_by_minor, threat_by_rua],
    scalars: [
        bia_chain,
        rua_mobility,
        ma_mobility,
        rua_semi_open,
        rua_open,
        ma_outpost,
        khun_shelter,
        khun_attackers,
        khun_center_endgame,
        mopup_edge,
        mopup_close,
        mopup_helper,
        mopup_margin,
        tempo,
        threat_by_bia,
        hanging,
        threat_by_khun
    ]
});

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        <Position as ttakji_rules::Position>::from_fen(fen).expect("FEN")
    }

    #[test]
    fn the_structure_key_follows_the_bia_and_the_material_only() {
        let key = |fen| <Position as EngineGame>::structure_key(&position(fen));
        let start = key("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1");
        // A Ma out, or the other side to move: the same structure.
        assert_eq!(
            start,
            key("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1")
        );
        assert_eq!(
            start,
            key("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/4N3/RNSKMS1R b - - 0 1")
        );
        // A Bia forward, the other colour's Bia forward to that square, a Ma fewer: new ones.
        let moved = key("rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1");
        let swapped = key("rnsmksnr/8/pppp1ppp/8/4p3/PPPPPPPP/8/RNSKMSNR w - - 0 1");
        let fewer = key("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMS1R w - - 0 1");
        let all = [start, moved, swapped, fewer];
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| a != b), "{all:x?}");
        }
    }

    #[test]
    fn the_exchange_bounds_agree_with_the_exchange_played_out() {
        // `see_ge` answers from what the first capture wins and risks where it can.
        crate::eval::assert_exchange_bounds_agree::<Position>(40);
    }

    #[test]
    fn a_thread_given_a_network_evaluates_with_it_except_in_mop_up_endings() {
        use crate::nnue::{Network, HIDDEN, QA, QB};
        // A network of the linear term only: each Rua is worth 1.0 (400 cp) to its side.
        let mut psqt = vec![0; NET_INPUTS];
        for sq in 0..64 {
            psqt[Role::Rua.index() * 64 + sq] = QA * QB;
            psqt[(6 + Role::Rua.index()) * 64 + sq] = -QA * QB;
        }
        let net = Network::from_weights(
            vec![[0; HIDDEN]; NET_INPUTS],
            [0; HIDDEN],
            [0; 2 * HIDDEN],
            0,
            psqt,
        );
        let state = MakrukState::default();
        let rua_up = position("1nsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1");
        // Black to move, a Rua down: -400 by the network. Without Bia, a Rua up is mop-up.
        let mop_up = position("4k3/8/8/8/8/8/8/R2K4 w - - 0 1");
        nnue::set_thread_net(nnue::NetChoice::Hand);
        let hand = (
            Position::evaluate(&rua_up, &state),
            Position::evaluate(&mop_up, &state),
        );
        nnue::set_thread_net(nnue::NetChoice::Net(std::sync::Arc::new(net)));
        assert_eq!(Position::evaluate(&rua_up, &state), -400);
        assert_eq!(Position::evaluate(&mop_up, &state), hand.1);
        // By default, Makruk's own network's score; the hand-written one in a mop-up ending.
        nnue::set_thread_net(nnue::NetChoice::GameDefault);
        let own = default_net().map(|net| {
            let us = rua_up.side_to_move();
            net.evaluate(&net_inputs(&rua_up, us), &net_inputs(&rua_up, us.other()))
        });
        assert_eq!(Some(Position::evaluate(&rua_up, &state)), own);
        assert_eq!(Position::evaluate(&mop_up, &state), hand.1);
        nnue::set_thread_net(nnue::NetChoice::Hand);
        assert_eq!(Position::evaluate(&rua_up, &state), hand.0);
        assert_ne!(hand.0, -400);
        nnue::set_thread_net(nnue::NetChoice::GameDefault);
    }

    #[test]
    fn the_embedded_network_loads_and_sees_a_rua_down_as_lost_material() {
        let net = default_net().expect("the embedded network");
        assert_eq!(net.inputs(), NET_INPUTS);
        let state = MakrukState::default();
        // White to move at the start, then without its h1 Rua: it judges the loss.
        let start = position(ttakji_rules::makruk::START_FEN);
        let down = position("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN1 w - - 0 1");
        let (even, worse) = (
            Position::evaluate(&start, &state),
            Position::evaluate(&down, &state),
        );
        assert!(even.abs() < 60, "{even}");
        assert!(worse < even - 300, "{worse} against {even}");
    }

    #[test]
    fn network_inputs_see_each_side_from_its_own_side_of_the_board() {
        // The setup turned half a turn is the setup: both sides see the same inputs.
        let start = position(ttakji_rules::makruk::START_FEN);
        let (mut w, mut b) = (
            net_inputs(&start, Color::White),
            net_inputs(&start, Color::Black),
        );
        assert_eq!(w.len(), 32);
        w.sort_unstable();
        b.sort_unstable();
        assert_eq!(w, b);
        // White's Khun on d1 is White's own Khun on square 3; Black sees it as the other
        // side's Khun on square 63 - 3.
        let pos = position("4k3/8/8/8/8/8/8/3K4 w - - 0 1");
        let mut w = net_inputs(&pos, Color::White);
        w.sort_unstable();
        assert_eq!(w.as_slice(), [3, 6 * 64 + 60]);
        let mut b = net_inputs(&pos, Color::Black);
        b.sort_unstable();
        assert_eq!(b.as_slice(), [3, 6 * 64 + 60]);
    }

    /// A network of small pseudo-random weights over Makruk's inputs.
    fn random_net(seed: u64) -> nnue::Network {
        let mut rng = crate::Rng::new(seed);
        let mut small = |n: usize| rng.below(2 * n + 1) as i16 - n as i16;
        let w1 = (0..NET_INPUTS)
            .map(|_| std::array::from_fn(|_| small(40)))
            .collect();
        let b1 = std::array::from_fn(|_| small(100) + 100);
        let w2 = std::array::from_fn(|_| small(64));
        let psqt = (0..NET_INPUTS).map(|_| i32::from(small(3000))).collect();
        nnue::Network::from_weights(w1, b1, w2, 17, psqt)
    }

    #[test]
    fn the_network_sums_carried_through_moves_equal_sums_taken_afresh() {
        use ttakji_rules::Position as _;
        let mut rng = crate::Rng::new(7);
        let state = MakrukState::default();
        let start = position(ttakji_rules::makruk::START_FEN);
        // With the hand-written evaluation nothing is carried; by default, Makruk's own
        // network's sums are.
        nnue::set_thread_net(nnue::NetChoice::Hand);
        assert_eq!(<Position as EngineGame>::acc_new(&start), None);
        nnue::set_thread_net(nnue::NetChoice::GameDefault);
        assert!(<Position as EngineGame>::acc_new(&start).is_some());
        nnue::set_thread_net(nnue::NetChoice::Net(std::sync::Arc::new(random_net(3))));
        let mut promotions = 0;
        for game in 0..80 {
            let mut pos = start.clone();
            let mut acc = <Position as EngineGame>::acc_new(&pos);
            for _ in 0..(20 + game * 4) {
                let mut moves = ttakji_rules::MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                promotions += usize::from(m.is_promotion());
                let mut after = pos.clone();
                after.play_unchecked(m);
                <Position as EngineGame>::acc_update(&mut acc, &pos, m, &after);
                pos = after;
                assert_eq!(
                    acc,
                    <Position as EngineGame>::acc_new(&pos),
                    "{}",
                    pos.fen()
                );
                // The same score, the network's or in a mop-up ending the hand-written one.
                let eval = <Position as EngineGame>::evaluate(&pos, &state);
                assert_eq!(
                    <Position as EngineGame>::evaluate_with(&pos, &state, &acc),
                    eval
                );
                // A null move keeps the sums: they are by colour, not by side to move.
                if let Some(passed) = <Position as EngineGame>::pass(&pos) {
                    assert_eq!(
                        <Position as EngineGame>::evaluate_with(&passed, &state, &acc),
                        <Position as EngineGame>::evaluate(&passed, &state)
                    );
                }
            }
        }
        nnue::set_thread_net(nnue::NetChoice::GameDefault);
        // The games went through promotions, where the piece set down is not the one lifted.
        assert!(promotions > 0);
    }

    /// White's threats in `fen` with `p`.
    fn white_threats(fen: &str, p: &Params) -> i32 {
        let pos = position(fen);
        let (w, b) = (
            Attacks::of(&pos, Color::White),
            Attacks::of(&pos, Color::Black),
        );
        threats(&pos, Color::White, &w, &b, p)
    }

    /// Every threat term at a distinct power of two, so that a sum shows which fired.
    fn probe() -> Params {
        Params {
            threat_by_minor: [0, 1, 2, 4, 8, 16],
            threat_by_rua: [0, 32, 64, 128, 256, 512],
            threat_by_bia: 1024,
            hanging: 2048,
            threat_by_khun: 4096,
            ..PARAMS
        }
    }

    #[test]
    fn threats_are_off_by_default() {
        assert!(!PARAMS.threats_on());
        assert!(THREATS.threats_on());
    }

    #[test]
    fn threat_by_minor_on_a_loose_or_defended_piece() {
        let p = probe();
        // White's Ma on d4 attacks the undefended Rua on e6: a minor's threat and hanging.
        let loose = "k7/8/4r3/8/3N4/8/8/7K w - - 0 1";
        assert_eq!(white_threats(loose, &p), 8 + 2048);
        // Defended by the Met on d7: still the minor's threat, no longer hanging.
        let defended = "k7/3m4/4r3/8/3N4/8/8/7K w - - 0 1";
        assert_eq!(white_threats(defended, &p), 8);
        // The term raises White's score.
        let pos = position(loose);
        assert!(white_score(&pos, &THREATS) > white_score(&pos, &PARAMS));
    }

    #[test]
    fn threat_by_rua_on_a_weak_piece() {
        // White's Rua on a6 attacks the undefended Ma on e6.
        let fen = "7k/8/R3n3/8/8/8/8/7K w - - 0 1";
        assert_eq!(white_threats(fen, &probe()), 128 + 2048);
        let pos = position(fen);
        assert!(white_score(&pos, &THREATS) > white_score(&pos, &PARAMS));
    }

    #[test]
    fn threat_by_a_safe_bia() {
        // White's Bia on d4 (nothing of Black's attacks it) attacks the Ma on e5, which the
        // Met on f6 defends: the Bia's threat only.
        let fen = "7k/8/5m2/4n3/3P4/8/8/7K w - - 0 1";
        assert_eq!(white_threats(fen, &probe()), 1024);
        let pos = position(fen);
        assert!(white_score(&pos, &THREATS) > white_score(&pos, &PARAMS));
    }

    #[test]
    fn threat_by_khun_on_a_loose_bia() {
        // White's Khun on d4 attacks the undefended Bia on e4.
        let fen = "k7/8/8/8/3Kp3/8/8/8 w - - 0 1";
        assert_eq!(white_threats(fen, &probe()), 4096 + 2048);
        // Black's threats count against White.
        let pos = position("7K/8/8/8/3kP3/8/8/8 b - - 0 1");
        assert!(white_score(&pos, &THREATS) < white_score(&pos, &PARAMS));
    }

    /// White's score with the file and outpost terms on (1, 16 and 256 cp) less without.
    fn files_and_outposts(fen: &str) -> i32 {
        let with = Params {
            rua_semi_open: 1,
            rua_open: 16,
            ma_outpost: 256,
            ..PARAMS
        };
        let pos = position(fen);
        white_score(&pos, &with) - white_score(&pos, &PARAMS)
    }

    #[test]
    fn rua_on_an_open_or_half_open_file() {
        assert_eq!(files_and_outposts("1k6/8/8/8/8/8/8/R6K w - - 0 1"), 17);
        // Only Black's Bia on the file: half open for White.
        assert_eq!(files_and_outposts("1k6/8/8/8/p7/8/8/R6K w - - 0 1"), 1);
        assert_eq!(files_and_outposts("k7/8/8/8/8/P7/8/R6K w - - 0 1"), 0);
        // Black's Rua on the open h-file counts against White.
        assert_eq!(files_and_outposts("k6r/8/8/8/8/P7/8/R6K w - - 0 1"), -17);
    }

    #[test]
    fn ma_on_an_outpost() {
        // d5, defended by the Bia on c4, no Black Bia on the c- or e-file ahead of it.
        assert_eq!(files_and_outposts("k7/8/8/3N4/2P5/8/8/7K w - - 0 1"), 256);
        // A Black Bia on e6 attacks it; on d4 (defended from c3) it can step to e5 and would.
        assert_eq!(files_and_outposts("k7/8/4p3/3N4/2P5/8/8/7K w - - 0 1"), 0);
        assert_eq!(files_and_outposts("k7/8/4p3/8/3N4/2P5/8/7K w - - 0 1"), 0);
        // Undefended.
        assert_eq!(files_and_outposts("k7/8/8/3N4/8/8/8/7K w - - 0 1"), 0);
        // Black's Ma on d4, defended by its Bia on c5: against White. A White Bia behind it
        // for Black (e5) does not spoil it; one ahead of it (e3, which attacks d4) does.
        assert_eq!(
            files_and_outposts("7k/8/8/2p1P3/3n4/8/8/K7 w - - 0 1"),
            -256
        );
        assert_eq!(files_and_outposts("7k/8/8/2p5/3n4/4P3/8/K7 w - - 0 1"), 0);
    }

    /// `fen`'s board turned half a turn with the colours swapped, and the other side to move:
    /// the same position for the other side (the setup is symmetric under that turn).
    fn turned(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let board = fields.next().unwrap_or_default();
        let turn = if fields.next() == Some("w") { "b" } else { "w" };
        let rows: Vec<String> = board
            .split('/')
            .rev()
            .map(|row| {
                // Expanded, turned and swapped, then the empty runs counted again.
                let expanded: String = row
                    .chars()
                    .flat_map(|c| match c.to_digit(10) {
                        Some(n) => vec!['1'; n as usize],
                        None if c.is_ascii_uppercase() => vec![c.to_ascii_lowercase()],
                        None => vec![c.to_ascii_uppercase()],
                    })
                    .collect();
                let mut out = String::new();
                let mut empty = 0;
                for c in expanded.chars().rev() {
                    if c == '1' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        format!("{} {turn} - - 0 1", rows.join("/"))
    }

    #[test]
    fn both_colours_are_judged_alike() {
        use ttakji_rules::{MoveList, Position as _};
        // Every term on (the default leaves the threats and the file and outpost terms off),
        // so that any term that judges one side differently shows.
        let p = Params {
            rua_semi_open: 7,
            rua_open: 11,
            ma_outpost: 13,
            ..THREATS
        };
        assert!(p.threats_on());
        let mut rng = crate::Rng::new(11);
        let mut checked = 0;
        for game in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..(10 + game * 2) {
                let fen = pos.fen();
                let other = position(&turned(&fen));
                assert_eq!(
                    turned(&other.fen()),
                    fen.split(' ').take(2).collect::<Vec<_>>().join(" ") + " - - 0 1"
                );
                for params in [&PARAMS, &p] {
                    assert_eq!(
                        white_score(&pos, params),
                        -white_score(&other, params),
                        "{fen}"
                    );
                }
                checked += 1;
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        assert!(checked > 1500);
    }
}
