//! Xiangqi evaluation. By default a network ([`default_net`], `crate::nnue`) judges every
//! position. The hand-written terms judge when a thread asks for them
//! (`nnue::NetChoice::Hand`): material (soldiers gain across the river, cannons lose and
//! horses gain as the board empties), piece-square terms, chariot and horse mobility, and
//! General safety (attackers near the palace against the advisors and elephants that guard
//! it). Two sets of those terms are there but off by default, each measured against
//! Fairy-Stockfish: king danger ([`KING_SAFETY`]) and threats ([`THREATS`]).

use std::sync::OnceLock;

use arrayvec::ArrayVec;
use ttakji_rules::xiangqi::{Color, Move, Piece, Position, Role, Square};

use crate::{
    nnue::{self, Network, View},
    EngineGame,
};

/// Every evaluation parameter of Xiangqi, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material by role: General, Advisor, Elephant, Horse, Chariot, Cannon, Soldier.
    pub value: [i32; 7],
    /// A soldier across the river, on top of its value.
    pub soldier_crossed: i32,
    /// A crossed soldier by rank from its own side (5 = just across, 9 = last rank).
    pub soldier_rank: [i32; 10],
    /// A crossed soldier on the three middle files.
    pub soldier_center: i32,
    /// Per step towards the middle file, by role.
    pub file_center: [i32; 7],
    /// A horse or chariot per rank advanced (up to the enemy palace).
    pub advance: [i32; 7],
    /// Per square a chariot reaches.
    pub chariot_mobility: i32,
    /// Per point a horse can reach (leg free, no own piece).
    pub horse_mobility: i32,
    /// Most squares a chariot's mobility counts (17, every one it can reach: linear).
    pub chariot_mobility_cap: i32,
    /// Most points a horse's mobility counts (8: linear).
    pub horse_mobility_cap: i32,
    /// Cannon value change per piece on the board beyond 16 (cannons like a full board).
    pub cannon_crowd: i32,
    /// Horse value change per piece on the board below 16.
    pub horse_sparse: i32,
    /// Per enemy attacker (chariot, horse, cannon, crossed soldier) in our half near the
    /// palace files, beyond what the guards (advisors, elephants) hold.
    pub palace_pressure: i32,
    /// The General off its back rank, per rank.
    pub general_raised: i32,
    /// King danger per enemy piece that attacks a point of our palace, by role (a cannon
    /// over one screen); see `king_hit`.
    pub king_attacker: [i32; 7],
    /// King danger per palace point attacked (a point attacked by two pieces counts twice).
    /// With two attackers or more, `danger² / 256` (danger at most [`KING_DANGER_CAP`]) is
    /// taken off, so that attacks count little alone and much together.
    pub king_hit: i32,
    /// King danger per missing Advisor or Elephant, when there are two attackers or more.
    pub king_guard_missing: i32,
    /// King danger per check a piece could give next move, by role (a chariot or cannon
    /// moving onto the General's file or rank, a horse to a checking point; whether the
    /// point is guarded is not looked at). A piece with such a check is an attacker.
    pub king_check: [i32; 7],
    /// For the side to move.
    pub tempo: i32,
    /// Threats, by the victim's role: an enemy piece (not the General) that one of ours of a
    /// lower class attacks (classes: soldier; advisor and elephant; horse and cannon;
    /// chariot), as Stockfish's `ThreatByMinor` and `ThreatByRook`. Pins are not looked at.
    pub threat_by_lesser: [i32; 7],
    /// Per enemy piece (not the General), by its role, that we attack and nothing of theirs
    /// defends, as Stockfish's `Hanging`.
    pub hanging: [i32; 7],
    /// 0: both sides' threats count (as Stockfish's); 1: only those against the side to
    /// move, the ones its quiescence search cannot answer by capturing.
    pub threats_against_mover_only: i32,
    /// Piece-square terms of the horse, chariot, cannon and soldier, by [`psq_index`] (rank
    /// from the piece's own side, file folded onto the left half: the board is symmetric).
    pub horse_psq: [i32; 50],
    /// The chariot's piece-square terms, as `horse_psq`.
    pub chariot_psq: [i32; 50],
    /// The cannon's piece-square terms, as `horse_psq`.
    pub cannon_psq: [i32; 50],
    /// The soldier's piece-square terms, as `horse_psq` (on top of `soldier_rank`).
    pub soldier_psq: [i32; 50],
}

/// Where a piece on file `f` and rank `rel` (from its own side) reads its piece-square term.
#[inline(always)]
pub const fn psq_index(f: i32, rel: i32) -> usize {
    let folded = if f > 4 { 8 - f } else { f };
    (rel * 5 + folded) as usize
}

/// The parameters in use: Texel-tuned (`examples/texel.rs`) on 35 000 quiet positions from
/// self-play games at 1 500 nodes a move, early-stopped on 8 800 held-out positions (error
/// there 0.0725 -> 0.0703), and kept because they beat [`HAND_SET`] at equal time (see
/// docs/benchmarks.md); but for the chariot's and the horse's mobility, five times the tuned
/// 3 and 6: a refit of the terms to Fairy-Stockfish's searches weighed them 5–6 times
/// heavier, and with them hard scores 25.0 % against Fairy-Stockfish at 200 ms (122 games)
/// where the tuned ones, side by side, score 17.7 % (150 games; session 27, docs/benchmarks.md).
/// The piece-square tables are zero: a fit of them to Fairy-Stockfish's searches did not play
/// better (session 27). The mobility stays linear (caps at the most a piece can reach):
/// capped at 8 squares for a chariot and 4 points for a horse it scored 31.7 % over 131
/// games, and a third heavier 28.1 % over 167, where the default scored 28.7 % over 150
/// (session 37).
pub const PARAMS: Params = Params {
    value: [0, 150, 150, 472, 1150, 450, 90],
    soldier_crossed: 60,
    soldier_rank: [0, 0, 0, 0, 0, -14, 1, 45, 45, -45],
    soldier_center: 1,
    file_center: [4, -14, 14, 2, 14, 16, 12],
    advance: [0, 14, -10, 16, 0, 0, 0],
    chariot_mobility: 15,
    horse_mobility: 30,
    chariot_mobility_cap: 17,
    horse_mobility_cap: 8,
    cannon_crowd: 17,
    horse_sparse: -5,
    palace_pressure: 40,
    general_raised: 6,
    king_attacker: [0; 7],
    king_hit: 0,
    king_guard_missing: 0,
    king_check: [0; 7],
    tempo: 4,
    threat_by_lesser: [0; 7],
    hanging: [0; 7],
    threats_against_mover_only: 0,
    horse_psq: [0; 50],
    chariot_psq: [0; 50],
    cannon_psq: [0; 50],
    soldier_psq: [0; 50],
};

/// [`PARAMS`] with king-danger terms set by hand (session 10, `match` suffix `/ks`). Not the
/// default: 28.7 % over 54 games against Fairy-Stockfish, the unchanged engine 34.7 % beside
/// it (docs/benchmarks.md); kept for a fit.
pub const KING_SAFETY: Params = Params {
    king_attacker: [0, 0, 0, 30, 40, 30, 10],
    king_hit: 12,
    king_guard_missing: 10,
    ..PARAMS
};

/// [`KING_SAFETY`] with the checks a piece could give next move (session 10, `/ks2`). Not the
/// default: 27.5 % over 100 games against Fairy-Stockfish, the unchanged engine 25.0 % over
/// 108 beside it (within the noise).
pub const KING_CHECKS: Params = Params {
    king_check: [0, 0, 0, 40, 50, 40, 0],
    ..KING_SAFETY
};

/// [`KING_CHECKS`] with every king-danger weight half as large again (the penalty 2.25
/// times), to see whether the terms are too weak to matter (session 10, `/ks3`): 17.2 % over
/// 58 games against Fairy-Stockfish, the unchanged engine 25.0 % over 56 beside it.
pub const KING_STRONG: Params = Params {
    king_attacker: [0, 0, 0, 45, 60, 45, 15],
    king_hit: 18,
    king_guard_missing: 15,
    king_check: [0, 0, 0, 60, 75, 60, 0],
    ..PARAMS
};

/// [`PARAMS`] with threats (session 38, `examples/match.rs` suffix `/th`): Stockfish's
/// classical `ThreatByMinor`, `ThreatByRook` and `Hanging` in our centipawns, the victims
/// mapped by value (a horse or cannon as a knight, a chariot as a rook). Not the default:
/// against Fairy-Stockfish at 200 ms it scored 26.6 % over 64 games (26.5 % over 34 counted
/// against the side to move only), the default beside it 38.0 % over 92 (session 38).
pub const THREATS: Params = Params {
    threat_by_lesser: [0, 20, 20, 50, 80, 50, 0],
    hanging: [0, 20, 20, 40, 50, 40, 15],
    ..PARAMS
};

/// The most king danger counted (a penalty of `CAP² / 256` = 625 cp).
pub const KING_DANGER_CAP: i32 = 400;

/// The hand-set starting values, kept to measure tuned parameters against
/// (`examples/match.rs`, suffix `/old`).
pub const HAND_SET: Params = Params {
    value: [0, 200, 200, 420, 920, 450, 90],
    soldier_crossed: 80,
    soldier_rank: [0, 0, 0, 0, 0, 0, 15, 30, 30, -30],
    soldier_center: 15,
    file_center: [0, 0, 0, 6, 0, 6, 0],
    advance: [0, 0, 0, 6, 2, 0, 0],
    chariot_mobility: 3,
    horse_mobility: 6,
    chariot_mobility_cap: 17,
    horse_mobility_cap: 8,
    cannon_crowd: 3,
    horse_sparse: 3,
    palace_pressure: 25,
    general_raised: 20,
    king_attacker: [0; 7],
    king_hit: 0,
    king_guard_missing: 0,
    king_check: [0; 7],
    tempo: 10,
    threat_by_lesser: [0; 7],
    hanging: [0; 7],
    threats_against_mover_only: 0,
    horse_psq: [0; 50],
    chariot_psq: [0; 50],
    cannon_psq: [0; 50],
    soldier_psq: [0; 50],
};

const HORSE_STEPS: [((i32, i32), (i32, i32)); 8] = [
    ((0, 1), (1, 2)),
    ((0, 1), (-1, 2)),
    ((0, -1), (1, -2)),
    ((0, -1), (-1, -2)),
    ((1, 0), (2, 1)),
    ((1, 0), (2, -1)),
    ((-1, 0), (-2, 1)),
    ((-1, 0), (-2, -1)),
];

/// Material of `color` without the General, at base values.
pub fn material(pos: &Position, color: Color) -> i32 {
    pos.pieces()
        .filter(|(_, p)| p.color == color)
        .map(|(_, p)| PARAMS.value[p.role as usize])
        .sum()
}

/// Along a line of points (bits `occ`) from index `at` towards higher (`step` 1) or lower
/// (`step` -1) indices: the first and the second occupied index met, if any.
#[inline(always)]
fn blockers(occ: u32, at: i32, step: i32) -> (Option<i32>, Option<i32>) {
    let bits = if step > 0 {
        occ & !((2u32 << at) - 1)
    } else {
        occ & ((1u32 << at) - 1)
    };
    let next = |b: u32| {
        if step > 0 {
            b.trailing_zeros() as i32
        } else {
            31 - b.leading_zeros() as i32
        }
    };
    if bits == 0 {
        return (None, None);
    }
    let first = next(bits);
    let rest = bits & !(1u32 << first);
    (Some(first), (rest != 0).then(|| next(rest)))
}

/// How many indices from `from` to `to` (walking by `step`; none if `to` lies behind
/// `from`) fall within `span` (inclusive; `(1, 0)` is empty).
#[inline(always)]
fn overlap(from: i32, to: i32, step: i32, span: (i32, i32)) -> i32 {
    let (lo, hi) = if step > 0 { (from, to) } else { (to, from) };
    (hi.min(span.1) - lo.max(span.0) + 1).max(0)
}

/// One line through a piece: its occupancy bits, the piece's index on it, its last index,
/// and the enemy palace's indices on it (`(1, 0)` if it misses the palace).
struct Line {
    occ: u32,
    at: i32,
    last: i32,
    palace: (i32, i32),
}

/// The rank and the file through (f, r), seen from the side whose enemy palace spans the
/// ranks `palace`.
#[inline(always)]
fn lines(pos: &Position, f: i32, r: i32, palace: (i32, i32)) -> [Line; 2] {
    const NONE: (i32, i32) = (1, 0);
    [
        Line {
            occ: u32::from(pos.rank_occupancy(r as u32)),
            at: f,
            last: 8,
            palace: if (palace.0..=palace.1).contains(&r) {
                (3, 5)
            } else {
                NONE
            },
        },
        Line {
            occ: u32::from(pos.file_occupancy(f as u32)),
            at: r,
            last: 9,
            palace: if (3..=5).contains(&f) { palace } else { NONE },
        },
    ]
}

/// One way along a [`Line`] from its piece.
#[derive(Clone, Copy)]
struct Way {
    /// 1 towards higher indices, -1 towards lower ones.
    step: i32,
    /// The first and the second occupied index met.
    first: Option<i32>,
    second: Option<i32>,
    /// The last index this way (the board's edge).
    edge: i32,
}

impl Way {
    /// The first piece met, or the edge: how far a chariot reaches (capturing included).
    #[inline(always)]
    fn reach(self) -> i32 {
        self.first.unwrap_or(self.edge)
    }

    /// The last empty index before the first piece, or the edge: how far a move that may
    /// not capture goes (the piece's own index when the next point is taken).
    #[inline(always)]
    fn free(self) -> i32 {
        self.first.map_or(self.edge, |b| b - self.step)
    }

    /// `(lo, hi)` of the indices from `a` to `b` walked this way.
    #[inline(always)]
    fn ordered(self, a: i32, b: i32) -> (i32, i32) {
        if self.step > 0 {
            (a, b)
        } else {
            (b, a)
        }
    }
}

/// Both ways along `line` from its piece: towards higher indices, then lower.
#[inline(always)]
fn ways(line: &Line) -> [Way; 2] {
    [(1, line.last), (-1, 0)].map(|(step, edge)| {
        let (first, second) = blockers(line.occ, line.at, step);
        Way {
            step,
            first,
            second,
            edge,
        }
    })
}

/// The span `(lo, hi)` between the ends reached each way (as [`ways`] orders them).
#[inline(always)]
fn span(ends: [i32; 2]) -> (i32, i32) {
    (ends[1], ends[0])
}

/// Whether `x` lies in one of two inclusive ranges (`(1, 0)` is empty).
#[inline(always)]
fn in_ranges(ranges: &[(i32, i32); 2], x: i32) -> bool {
    ranges.iter().any(|&(lo, hi)| lo <= x && x <= hi)
}

/// The points from which an enemy piece checks a General.
struct CheckPoints {
    /// The General's point.
    at: (i32, i32),
    /// Points a horse checks from (bit = point index), leg free.
    horse: u128,
    /// The empty points next to the General on its rank (files) and its file (ranks), one
    /// range each way: a chariot checks from there.
    chariot: [[(i32, i32); 2]; 2],
    /// The empty points beyond the first piece each way on its rank and file, up to the
    /// second piece: a cannon checks from there.
    cannon: [[(i32, i32); 2]; 2],
}

impl CheckPoints {
    fn new(pos: &Position, color: Color) -> CheckPoints {
        let g = pos.general(color);
        let (gf, gr) = (g.file() as i32, g.rank() as i32);
        let mut horse = 0u128;
        for ((lf, lr), (tf, tr)) in HORSE_STEPS {
            // A horse on (hf, hr) jumps by (tf, tr) onto the General, its leg at (lf, lr).
            let (hf, hr) = (gf - tf, gr - tr);
            if (0..9).contains(&hf)
                && (0..10).contains(&hr)
                && Square::new((hf + lf) as u32, (hr + lr) as u32)
                    .is_some_and(|leg| pos.piece_at(leg).is_none())
            {
                horse |= 1u128 << (hr * 9 + hf);
            }
        }
        let mut chariot = [[(1, 0); 2]; 2];
        let mut cannon = [[(1, 0); 2]; 2];
        for (i, line) in lines(pos, gf, gr, (0, 0)).iter().enumerate() {
            for (j, w) in ways(line).into_iter().enumerate() {
                chariot[i][j] = w.ordered(line.at + w.step, w.free());
                if let Some(b) = w.first {
                    cannon[i][j] = w.ordered(b + w.step, w.second.map_or(w.edge, |c| c - w.step));
                }
            }
        }
        CheckPoints {
            at: (gf, gr),
            horse,
            chariot,
            cannon,
        }
    }

    /// How many of the moves along a piece's rank and file (from (f, r) within the files
    /// `rank_span` and the ranks `file_span`) land where `ranges` check from.
    #[inline(always)]
    fn line_checks(
        &self,
        ranges: &[[(i32, i32); 2]; 2],
        (f, r): (i32, i32),
        rank_span: (i32, i32),
        file_span: (i32, i32),
    ) -> i32 {
        let (gf, gr) = self.at;
        // Along the rank onto the General's file, along the file onto its rank.
        i32::from(f != gf && rank_span.0 <= gf && gf <= rank_span.1 && in_ranges(&ranges[1], r))
            + i32::from(
                r != gr && file_span.0 <= gr && gr <= file_span.1 && in_ranges(&ranges[0], f),
            )
    }
}

/// Whether any weight of a per-role table is set.
const fn any_set(table: &[i32; 7]) -> bool {
    let mut i = 0;
    while i < 7 {
        if table[i] != 0 {
            return true;
        }
        i += 1;
    }
    false
}

impl Params {
    /// Whether any king-danger weight is set: without one the evaluation skips that work
    /// (the palace points attacked, the cannons' lines, the checking points).
    pub const fn king_danger(&self) -> bool {
        any_set(&self.king_attacker)
            || any_set(&self.king_check)
            || self.king_hit != 0
            || self.king_guard_missing != 0
    }

    /// Whether any threat weight is set: without one the evaluation skips the attack maps.
    pub const fn threats(&self) -> bool {
        any_set(&self.threat_by_lesser) || any_set(&self.hanging)
    }
}

/// A role's class for threats: soldier 0, advisor and elephant 1, horse and cannon 2,
/// chariot 3, General 4 (never a victim).
const fn threat_class(role: Role) -> usize {
    match role {
        Role::Soldier => 0,
        Role::Advisor | Role::Elephant => 1,
        Role::Horse | Role::Cannon => 2,
        Role::Chariot => 3,
        Role::General => 4,
    }
}

/// The evaluation from Red's side, with `p`.
#[inline(always)]
fn white_score(pos: &Position, p: &Params) -> i32 {
    // The default evaluation pays nothing for the king-danger and threat terms it does not
    // use.
    match (p.king_danger(), p.threats()) {
        (false, false) => score::<false, false>(pos, p),
        (true, false) => score::<true, false>(pos, p),
        (false, true) => score::<false, true>(pos, p),
        (true, true) => score::<true, true>(pos, p),
    }
}

/// [`white_score`], with the king-danger work (`KING`) or without, and with the attack maps
/// for threats (`THREATS`) or without.
fn score<const KING: bool, const THREATS: bool>(pos: &Position, p: &Params) -> i32 {
    let occ = pos.occupied();
    let n = occ.count_ones() as i32;
    let piece_at = |f: i32, r: i32| pos.piece_at(Square::new(f as u32, r as u32)?);
    // The bit of (f, r) if it is on the board and taken.
    let taken = |f: i32, r: i32| -> u128 {
        if (0..9).contains(&f) && (0..10).contains(&r) {
            occ & (1u128 << (r * 9 + f))
        } else {
            0
        }
    };
    // For threats: the pieces of each side, and the taken points each side attacks (or
    // defends) by the attacker's class (`threat_class`).
    let mut own = [0u128; 2];
    let mut hit_by = [[0u128; 5]; 2];
    let mut score = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut guards = [0i32; 2];
    // Pieces attacking the enemy palace, and their king danger.
    let mut king_attackers = [0i32; 2];
    let mut danger = [0i32; 2];
    let check_points = KING.then(|| {
        [
            CheckPoints::new(pos, Color::Red),
            CheckPoints::new(pos, Color::Black),
        ]
    });
    for (sq, piece) in pos.pieces() {
        let us = piece.color.index();
        let target = check_points.as_ref().map(|c| &c[1 - us]);
        let f = sq.file() as i32;
        let r = sq.rank() as i32;
        let (rel, forward, palace) = if piece.color == Color::Red {
            (r, 1, (7, 9))
        } else {
            (9 - r, -1, (0, 2))
        };
        let in_palace = |f: i32, r: i32| (3..=5).contains(&f) && (palace.0..=palace.1).contains(&r);
        let role = piece.role;
        let mut s = p.value[role as usize];
        s += p.file_center[role as usize] * (4 - (f - 4).abs());
        s += p.advance[role as usize] * rel.min(7);
        s += match role {
            Role::Horse => p.horse_psq[psq_index(f, rel)],
            Role::Chariot => p.chariot_psq[psq_index(f, rel)],
            Role::Cannon => p.cannon_psq[psq_index(f, rel)],
            Role::Soldier => p.soldier_psq[psq_index(f, rel)],
            _ => 0,
        };
        let in_enemy_half_near_palace = rel >= 5 && (2..=6).contains(&f);
        // Points of the enemy palace this piece attacks, checks it could give (`KING`).
        let mut hits = 0;
        let mut checks = 0;
        // Taken points this piece attacks (`THREATS`).
        let mut attacks = 0u128;
        // Its own side of the river; its own palace is `self::in_palace(us, …)` (the local
        // `in_palace` is the enemy's).
        let home = |r: i32| if forward > 0 { r <= 4 } else { r >= 5 };
        let in_own_palace = |f: i32, r: i32| self::in_palace(us, f, r);
        match role {
            Role::General => {
                s -= p.general_raised * rel;
                if THREATS {
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        if in_own_palace(f + df, r + dr) {
                            attacks |= taken(f + df, r + dr);
                        }
                    }
                }
            }
            Role::Advisor | Role::Elephant => {
                guards[us] += 1;
                if THREATS {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        if role == Role::Advisor {
                            if in_own_palace(f + df, r + dr) {
                                attacks |= taken(f + df, r + dr);
                            }
                        } else if home(r + 2 * dr) && taken(f + df, r + dr) == 0 {
                            attacks |= taken(f + 2 * df, r + 2 * dr);
                        }
                    }
                }
            }
            Role::Soldier => {
                if KING {
                    hits += i32::from(in_palace(f, r + forward));
                }
                if THREATS {
                    attacks |= taken(f, r + forward);
                    if rel >= 5 {
                        attacks |= taken(f - 1, r) | taken(f + 1, r);
                    }
                }
                if rel >= 5 {
                    s += p.soldier_crossed + p.soldier_rank[rel as usize];
                    if (3..=5).contains(&f) {
                        s += p.soldier_center;
                    }
                    if in_enemy_half_near_palace {
                        attackers[us] += 1;
                    }
                    if KING {
                        hits += i32::from(in_palace(f - 1, r)) + i32::from(in_palace(f + 1, r));
                    }
                }
            }
            Role::Cannon => {
                s += p.cannon_crowd * (n - 16);
                if in_enemy_half_near_palace || (f == 4) {
                    attackers[us] += 1;
                }
                // A cannon attacks beyond its screen, up to the next piece, and moves up to
                // the screen.
                if KING || THREATS {
                    let mut spans = [(0, 0); 2];
                    for (i, line) in lines(pos, f, r, palace).iter().enumerate() {
                        let ways = ways(line);
                        spans[i] = span(ways.map(Way::free));
                        for w in ways {
                            if let Some(screen) = w.first {
                                let end = w.second.unwrap_or(w.edge);
                                hits += overlap(screen + w.step, end, w.step, line.palace);
                            }
                            if let Some(b) = w.second.filter(|_| THREATS) {
                                attacks |= if i == 0 { taken(b, r) } else { taken(f, b) };
                            }
                        }
                    }
                    if let Some(target) = target {
                        checks += target.line_checks(&target.cannon, (f, r), spans[0], spans[1]);
                    }
                }
            }
            Role::Horse => {
                s += p.horse_sparse * (16 - n);
                let mut points = 0;
                for ((lf, lr), (tf, tr)) in HORSE_STEPS {
                    // A landing point on the board has its leg on the board too.
                    let (tf, tr) = (f + tf, r + tr);
                    if (0..9).contains(&tf)
                        && (0..10).contains(&tr)
                        && piece_at(f + lf, r + lr).is_none()
                    {
                        if THREATS {
                            attacks |= taken(tf, tr);
                        }
                        if piece_at(tf, tr).is_none_or(|x| x.color != piece.color) {
                            points += 1;
                            checks += target
                                .map_or(0, |t| i32::from((t.horse >> (tr * 9 + tf)) & 1 != 0));
                        }
                        if KING {
                            hits += i32::from(in_palace(tf, tr));
                        }
                    }
                }
                s += p.horse_mobility * points.min(p.horse_mobility_cap);
                if in_enemy_half_near_palace {
                    attackers[us] += 1;
                }
            }
            Role::Chariot => {
                // Empty points up to the first piece each way, and that piece if an enemy.
                let mut reach = 0;
                let mut spans = [(0, 0); 2];
                for (i, line) in lines(pos, f, r, palace).iter().enumerate() {
                    let ways = ways(line);
                    for w in ways {
                        let end = w.reach();
                        if let Some(b) = w.first.filter(|_| THREATS) {
                            attacks |= if i == 0 { taken(b, r) } else { taken(f, b) };
                        }
                        let own = w.first.is_some_and(|b| {
                            let (bf, br) = if i == 0 { (b, r) } else { (f, b) };
                            piece_at(bf, br).is_some_and(|x| x.color == piece.color)
                        });
                        reach += (end - line.at).abs() - i32::from(own);
                        if KING {
                            hits += overlap(line.at + w.step, end, w.step, line.palace);
                        }
                    }
                    if KING {
                        spans[i] = span(ways.map(Way::reach));
                    }
                }
                if let Some(t) = target {
                    checks += t.line_checks(&t.chariot, (f, r), spans[0], spans[1]);
                }
                s += p.chariot_mobility * reach.min(p.chariot_mobility_cap);
                if rel >= 4 {
                    attackers[us] += 1;
                }
            }
        }
        if KING && (hits > 0 || checks > 0) {
            king_attackers[us] += 1;
            danger[us] += p.king_attacker[role as usize]
                + p.king_hit * hits
                + p.king_check[role as usize] * checks;
        }
        if THREATS {
            own[us] |= 1u128 << sq.index();
            hit_by[us][threat_class(role)] |= attacks;
        }
        score[us] += s;
    }
    for us in 0..2 {
        let them = 1 - us;
        let pressure = (attackers[them] * 2 - guards[us]).max(0);
        score[us] -= p.palace_pressure * pressure * attackers[them] / 2;
        if THREATS && (p.threats_against_mover_only == 0 || pos.side_to_move().index() == them) {
            score[us] += threats(pos, own[them], &hit_by[us], &hit_by[them], p);
        }
        if KING && king_attackers[them] >= 2 {
            let d = (danger[them] + p.king_guard_missing * (4 - guards[us]).max(0))
                .clamp(0, KING_DANGER_CAP);
            score[us] -= d * d / 256;
        }
    }
    score[0] - score[1]
}

/// What `ours` (the taken points we attack, by attacker class) threatens among `victims`
/// (their pieces), which `theirs` defends.
fn threats(pos: &Position, victims: u128, ours: &[u128; 5], theirs: &[u128; 5], p: &Params) -> i32 {
    let defended = theirs.iter().fold(0, |a, &b| a | b);
    // `lesser[k]`: attacked by one of our pieces of a class below k.
    let mut lesser = [0u128; 5];
    for k in 1..5 {
        lesser[k] = lesser[k - 1] | ours[k - 1];
    }
    let mut bits = victims & (lesser[4] | ours[4]);
    let mut s = 0;
    while bits != 0 {
        let i = bits.trailing_zeros();
        bits &= bits - 1;
        let bit = 1u128 << i;
        let Some(piece) = Square::new(i % 9, i / 9).and_then(|sq| pos.piece_at(sq)) else {
            continue;
        };
        let role = piece.role;
        if role == Role::General {
            continue;
        }
        if lesser[threat_class(role)] & bit != 0 {
            s += p.threat_by_lesser[role as usize];
        }
        if defended & bit == 0 {
            s += p.hanging[role as usize];
        }
    }
    s
}

/// Role values for exchanges (General, Advisor, Elephant, Horse, Chariot, Cannon, Soldier):
/// the General only ever captures last, since legal moves never put it where it can be taken.
const SEE_VALUE: [i32; 7] = [10_000, 200, 200, 420, 920, 450, 100];

/// Longest exchange played out (each side has at most 16 pieces).
const SEE_MAX: usize = 32;

/// A mailbox for exchanges: `1 + 8 * colour + role` per point, 0 when empty.
type Mailbox = [u8; 90];

#[inline]
fn cell(board: &Mailbox, f: i32, r: i32) -> Option<u8> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| board[(r * 9 + f) as usize])
}

/// Whether the point (f, r) lies in the palace of the colour with index `c`.
#[inline]
fn in_palace(c: usize, f: i32, r: i32) -> bool {
    (3..=5).contains(&f) && if c == 0 { r <= 2 } else { r >= 7 }
}

/// The least valuable piece of colour index `c` that can capture on (tf, tr) on `board`, as
/// (point index, value). Pins are ignored; the General only captures where the other side
/// has no piece left to take back.
fn least_attacker(board: &Mailbox, c: usize, tf: i32, tr: i32) -> Option<(usize, i32)> {
    let own = |code: u8, role: Role| code == 1 + 8 * c as u8 + role as u8;
    let idx = |f: i32, r: i32| (r * 9 + f) as usize;
    let mut best: Option<(usize, i32)> = None;
    let mut consider = |f: i32, r: i32, role: Role| {
        let v = SEE_VALUE[role as usize];
        if best.is_none_or(|(_, b)| v < b) {
            best = Some((idx(f, r), v));
        }
    };
    // Soldiers: from behind, and from the sides once across the river.
    let (back, crossed) = if c == 0 { (-1, tr >= 5) } else { (1, tr <= 4) };
    if cell(board, tf, tr + back).is_some_and(|x| own(x, Role::Soldier)) {
        return Some((idx(tf, tr + back), SEE_VALUE[Role::Soldier as usize]));
    }
    if crossed {
        for df in [-1, 1] {
            if cell(board, tf + df, tr).is_some_and(|x| own(x, Role::Soldier)) {
                return Some((idx(tf + df, tr), SEE_VALUE[Role::Soldier as usize]));
            }
        }
    }
    // Advisors inside their palace, elephants on their side of the river.
    if in_palace(c, tf, tr) {
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            if cell(board, tf + df, tr + dr).is_some_and(|x| own(x, Role::Advisor)) {
                return Some((idx(tf + df, tr + dr), SEE_VALUE[Role::Advisor as usize]));
            }
        }
    }
    if (c == 0 && tr <= 4) || (c == 1 && tr >= 5) {
        for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
            if cell(board, tf + df, tr + dr).is_some_and(|x| own(x, Role::Elephant))
                && cell(board, tf + df / 2, tr + dr / 2) == Some(0)
            {
                return Some((idx(tf + df, tr + dr), SEE_VALUE[Role::Elephant as usize]));
            }
        }
    }
    // Horses: the leg is next to the horse, towards the long side of the jump.
    for ((lf, lr), (hf, hr)) in HORSE_STEPS {
        // A horse on (tf - hf, tr - hr) jumps by (hf, hr); its leg is one step along the
        // long side: (lf, lr) seen from the horse.
        let (f, r) = (tf - hf, tr - hr);
        if cell(board, f, r).is_some_and(|x| own(x, Role::Horse))
            && cell(board, f + lf, r + lr) == Some(0)
        {
            consider(f, r, Role::Horse);
        }
    }
    // Chariots (first piece on a line), cannons (second piece) and the General (next to it).
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let (mut f, mut r) = (tf + df, tr + dr);
        let mut screens = 0;
        while let Some(x) = cell(board, f, r) {
            if x != 0 {
                if screens == 0 {
                    if own(x, Role::Chariot) {
                        consider(f, r, Role::Chariot);
                    } else if own(x, Role::General)
                        && (f - tf).abs() + (r - tr).abs() == 1
                        && in_palace(c, tf, tr)
                    {
                        consider(f, r, Role::General);
                    }
                } else {
                    if own(x, Role::Cannon) {
                        consider(f, r, Role::Cannon);
                    }
                    break;
                }
                screens += 1;
            }
            f += df;
            r += dr;
        }
    }
    best
}

/// Static exchange evaluation of `m` (a capture or a quiet move), the material it wins once
/// every capture on its square has been played out least valuable piece first
/// ([`EngineGame::see`]), on a mailbox: after each
/// capture the least valuable piece that can take back is looked up again, so lines that
/// open (a chariot behind a chariot) and cannon screens that appear or vanish are seen, as
/// are blocked horse legs and elephant eyes; pins are not. A capture of a piece at least as
/// valuable as the capturer cannot lose, so it returns the lower bound `victim - capturer`
/// without playing the exchange out.
pub fn see(pos: &Position, m: Move) -> i32 {
    let to = m.to();
    let Some(mover) = pos.piece_at(m.from()) else {
        return 0;
    };
    // A quiet move wins nothing at first, and may lose the piece it moves.
    let first = pos.piece_at(to).map_or(0, |v| SEE_VALUE[v.role as usize]);
    let mut on_square = SEE_VALUE[mover.role as usize];
    // A legal move of the General is never taken back.
    if mover.role == Role::General {
        return first;
    }
    if first >= on_square {
        return first - on_square;
    }
    let mut board: Mailbox = pos.mailbox();
    let (tf, tr) = (to.file() as i32, to.rank() as i32);
    board[m.from().index()] = 0;
    board[to.index()] = 1 + 8 * mover.color.index() as u8 + mover.role as u8;
    let mut gain = [0i32; SEE_MAX + 1];
    gain[0] = first;
    let mut c = mover.color.other().index();
    let mut d = 0;
    while d < SEE_MAX {
        let Some((from, value)) = least_attacker(&board, c, tf, tr) else {
            break;
        };
        let code = board[from];
        board[from] = 0;
        if value == SEE_VALUE[Role::General as usize]
            && least_attacker(&board, 1 - c, tf, tr).is_some()
        {
            // The General may not capture into a guarded point.
            break;
        }
        board[to.index()] = code;
        d += 1;
        // gain[d]: what the side making the d-th capture has won if the exchange stops there.
        gain[d] = on_square - gain[d - 1];
        on_square = value;
        c = 1 - c;
    }
    // Each side may stop instead of capturing.
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Inputs of Xiangqi's network: the piece's colour (the viewer's first), its role (General,
/// Advisor, Elephant, Horse, Chariot, Cannon, Soldier) and its point as the viewer sees the
/// board.
pub const NET_INPUTS: usize = 2 * 7 * 90;

/// The network's active inputs for `pos` seen by `viewer`: Black sees the board with the
/// ranks turned over, so that its own side is at the bottom as Red's is.
pub fn net_inputs(pos: &Position, viewer: Color) -> ArrayVec<u16, 32> {
    let mut v = ArrayVec::new();
    for (sq, piece) in pos.pieces() {
        // At most 32 pieces, 16 a side.
        let _ = v.try_push(net_input(sq, piece, viewer));
    }
    v
}

/// The network's input for `piece` on `sq` seen by `viewer`.
#[inline]
fn net_input(sq: Square, piece: Piece, viewer: Color) -> u16 {
    let theirs = usize::from(piece.color != viewer);
    let point = if viewer == Color::Red {
        sq.index()
    } else {
        (9 - sq.rank() as usize) * 9 + sq.file() as usize
    };
    ((theirs * 7 + piece.role as usize) * 90 + point) as u16
}

/// Xiangqi's own network, which threads evaluate with unless told otherwise
/// ([`nnue::set_thread_net`]): trained on positions of the hand-written evaluation's
/// self-play, each scored by a 3 000-node search of Fairy-Stockfish (docs/benchmarks.md,
/// Search, session 42). `None` only if the embedded file were damaged, which a test rules out.
pub fn default_net() -> Option<&'static Network> {
    static NET: OnceLock<Option<Network>> = OnceLock::new();
    Network::embedded(&NET, include_bytes!("../../nets/xiangqi.net"), NET_INPUTS)
}

/// The score of the network this thread evaluates with ([`nnue::set_thread_net`], by
/// default [`default_net`]) for the side to move, or `None` for the hand-written terms.
fn net_score(pos: &Position) -> Option<i32> {
    let us = pos.side_to_move();
    let score = |net: &Network| net.evaluate(&net_inputs(pos, us), &net_inputs(pos, us.other()));
    nnue::with_net(default_net(), score)
}

/// The colours whose views of the board the network's sums are kept for, in order.
const VIEWERS: [Color; 2] = [Color::Red, Color::Black];

/// The network's sums from Red's and Black's points of view, if this thread has a network.
fn net_views(pos: &Position) -> Option<[View; 2]> {
    nnue::with_net(default_net(), |net| {
        VIEWERS.map(|viewer| View::new(net, &net_inputs(pos, viewer)))
    })
}

impl EngineGame for Position {
    fn see(pos: &Self, m: Move) -> Option<i32> {
        Some(see(pos, m))
    }

    fn see_ge(pos: &Self, m: Move, threshold: i32) -> bool {
        // At worst the exchange loses the moving piece for what it takes (the General is
        // never taken): above the threshold even then, it need not be played out.
        let value = |sq| pos.piece_at(sq).map_or(0, |p| SEE_VALUE[p.role as usize]);
        let general = pos
            .piece_at(m.from())
            .is_some_and(|p| p.role == Role::General);
        let floor = value(m.to()) - if general { 0 } else { value(m.from()) };
        floor >= threshold || see(pos, m) >= threshold
    }

    /// The network's sums by viewer (Red's first), while the thread has a network.
    type Acc = Option<[View; 2]>;

    fn acc_new(pos: &Self) -> Self::Acc {
        net_views(pos)
    }

    fn acc_update(acc: &mut Self::Acc, before: &Self, m: Move, after: &Self) {
        let Some(views) = acc else {
            return;
        };
        // A move lifts its piece (and what it takes) and sets it down: nothing else changes.
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

    fn evaluate_with(pos: &Self, state: &(), acc: &Self::Acc) -> i32 {
        let us = pos.side_to_move().index();
        match acc {
            Some(views) => {
                nnue::with_net(default_net(), |net| net.output(&views[us], &views[1 - us]))
                    .unwrap_or_else(|| Self::evaluate(pos, state))
            }
            None => Self::evaluate(pos, state),
        }
    }

    fn evaluate(pos: &Self, _state: &()) -> i32 {
        if let Some(s) = net_score(pos) {
            return s;
        }
        with_params(|p| {
            let s = white_score(pos, p);
            let s = if pos.side_to_move() == Color::Red {
                s
            } else {
                -s
            };
            s + p.tempo
        })
    }

    fn capture_values(pos: &Self, m: Move) -> (i32, i32) {
        let victim = pos.piece_at(m.to()).map_or(0, |p| match p.role {
            Role::General => 2000,
            r => PARAMS.value[r as usize],
        });
        let attacker = pos
            .piece_at(m.from())
            .map_or(0, |p| PARAMS.value[p.role as usize]);
        (victim, attacker)
    }

    fn move_key(m: Move) -> u16 {
        // 90 * 90 = 8100 < 8192.
        (m.from().index() * 90 + m.to().index()) as u16 + 1
    }

    const PIECE_TO_KEYS: usize = 1 + 14 * 90;

    fn piece_to(pos: &Self, m: Move) -> u16 {
        pos.piece_at(m.from()).map_or(0, |p| {
            1 + ((p.color.index() * 7 + p.role as usize) * 90 + m.to().index()) as u16
        })
    }

    fn stalemate_possible(pos: &Self) -> bool {
        // A chariot, horse or cannon can be blocked, but hardly all of them at once.
        !Self::null_move_ok(pos)
    }

    fn null_move_ok(pos: &Self) -> bool {
        let us = pos.side_to_move();
        pos.pieces().any(|(_, p)| {
            p.color == us && matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon)
        })
    }

    fn structure_key(pos: &Self) -> u64 {
        // Where the soldiers and each General and its guards stand, and which attacking
        // pieces each side has (a multiset: no squares).
        pos.pieces().fold(0u64, |h, (sq, p)| {
            let piece = (p.color.index() * 7 + p.role as usize) as u64;
            let item = match p.role {
                Role::Chariot | Role::Horse | Role::Cannon => piece,
                _ => 16 + piece * 90 + sq.index() as u64,
            };
            h.wrapping_add(super::mix(item))
        })
    }

    fn may_end(_pos: &Self, _state: &(), has_moves: bool, zeroing: bool) -> bool {
        !has_moves || zeroing
    }
}

crate::eval::tunable!(Params {
    arrays: [
        value,
        soldier_rank,
        file_center,
        advance,
        king_attacker,
        king_check,
        threat_by_lesser,
        hanging,
        horse_psq,
        chariot_psq,
        cannon_psq,
        soldier_psq
    ],
    scalars: [
        soldier_crossed,
        soldier_center,
        chariot_mobility,
        horse_mobility,
        chariot_mobility_cap,
        horse_mobility_cap,
        threats_against_mover_only,
        cannon_crowd,
        horse_sparse,
        palace_pressure,
        general_raised,
        king_hit,
        king_guard_missing,
        tempo
    ]
});

#[cfg(test)]
mod tests {
    use ttakji_rules::{xiangqi::Piece, Position as _};

    use super::*;

    #[test]
    fn the_structure_key_follows_soldiers_generals_and_guards_only() {
        let key =
            |fen| <Position as EngineGame>::structure_key(&Position::from_fen(fen).expect("FEN"));
        let start = key("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
        // A cannon to the middle, a horse out: the same structure.
        assert_eq!(
            start,
            key("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b - - 0 1")
        );
        assert_eq!(
            start,
            key("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b - - 0 1")
        );
        // A soldier forward, an advisor up, a chariot fewer: new ones.
        let all = [
            start,
            key("rheakaehr/9/1c5c1/p1p1p1p1p/9/4P4/P1P3P1P/1C5C1/9/RHEAKAEHR b - - 0 1"),
            key("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4A4/RHE1KAEHR b - - 0 1"),
            key("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEH1 w - - 0 1"),
        ];
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| a != b), "{all:x?}");
        }
    }

    #[test]
    fn network_inputs_see_each_side_from_its_own_side_of_the_board() {
        let start = Position::startpos();
        let (mut r, mut b) = (
            net_inputs(&start, Color::Red),
            net_inputs(&start, Color::Black),
        );
        assert_eq!(r.len(), 32);
        r.sort_unstable();
        b.sort_unstable();
        assert_eq!(r, b);
        // Red's General on e1 (point 4), Black's on d10 (point 84): Black sees its own on
        // d1 (3) and Red's on e10 (85).
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").expect("FEN");
        let mut red = net_inputs(&pos, Color::Red);
        red.sort_unstable();
        assert_eq!(red.as_slice(), [4, 7 * 90 + 84]);
        let mut black = net_inputs(&pos, Color::Black);
        black.sort_unstable();
        assert_eq!(black.as_slice(), [3, 7 * 90 + 85]);
    }

    fn at(board: &[Option<Piece>; 90], f: i32, r: i32) -> Option<Option<Piece>> {
        ((0..9).contains(&f) && (0..10).contains(&r)).then(|| board[(r * 9 + f) as usize])
    }

    /// The evaluation before session 9's faster one, on a rebuilt mailbox: they must agree.
    fn white_score_mailbox(pos: &Position, p: &Params) -> i32 {
        let mut board = [None; 90];
        let mut n = 0i32;
        for (sq, piece) in pos.pieces() {
            board[sq.index()] = Some(piece);
            n += 1;
        }
        let mut score = [0i32; 2];
        let mut attackers = [0i32; 2];
        let mut guards = [0i32; 2];
        let mut king_attackers = [0i32; 2];
        let mut danger = [0i32; 2];
        for (sq, piece) in pos.pieces() {
            let i = sq.index();
            let us = piece.color.index();
            let f = (i % 9) as i32;
            let r = (i / 9) as i32;
            let rel = if piece.color == Color::Red { r } else { 9 - r };
            let forward = if piece.color == Color::Red { 1 } else { -1 };
            let palace = if piece.color == Color::Red {
                7..=9
            } else {
                0..=2
            };
            let in_palace = |f: i32, r: i32| (3..=5).contains(&f) && palace.contains(&r);
            let mut hits = 0;
            let mut checks = 0;
            let g = pos.general(piece.color.other());
            let (gf, gr) = (g.file() as i32, g.rank() as i32);
            // Pieces strictly between (f, r) and the General, if on one line.
            let between = |f: i32, r: i32| {
                if f != gf && r != gr {
                    return None;
                }
                let (df, dr) = ((gf - f).signum(), (gr - r).signum());
                let (mut cf, mut cr, mut k) = (f + df, r + dr, 0);
                while (cf, cr) != (gf, gr) {
                    k += i32::from(board[(cr * 9 + cf) as usize].is_some());
                    cf += df;
                    cr += dr;
                }
                Some(k)
            };
            // A move from (f, r) to (tf, tr) that lands on the General's file off it, or on
            // its rank off it, with `screens` pieces between.
            let line_check = |tf: i32, tr: i32, screens: i32| {
                let onto = (tf == gf && f != gf) || (tr == gr && r != gr);
                i32::from(onto && between(tf, tr) == Some(screens))
            };
            let role = piece.role;
            let mut s = p.value[role as usize];
            s += p.file_center[role as usize] * (4 - (f - 4).abs());
            s += p.advance[role as usize] * rel.min(7);
            let table = match role {
                Role::Horse => Some(&p.horse_psq),
                Role::Chariot => Some(&p.chariot_psq),
                Role::Cannon => Some(&p.cannon_psq),
                Role::Soldier => Some(&p.soldier_psq),
                _ => None,
            };
            s += table.map_or(0, |t| t[(rel * 5 + f.min(8 - f)) as usize]);
            let in_enemy_half_near_palace = rel >= 5 && (2..=6).contains(&f);
            match role {
                Role::General => s -= p.general_raised * rel,
                Role::Advisor | Role::Elephant => guards[us] += 1,
                Role::Soldier => {
                    hits += i32::from(in_palace(f, r + forward));
                    if rel >= 5 {
                        hits += i32::from(in_palace(f - 1, r)) + i32::from(in_palace(f + 1, r));
                        s += p.soldier_crossed + p.soldier_rank[rel as usize];
                        if (3..=5).contains(&f) {
                            s += p.soldier_center;
                        }
                        if in_enemy_half_near_palace {
                            attackers[us] += 1;
                        }
                    }
                }
                Role::Cannon => {
                    s += p.cannon_crowd * (n - 16);
                    if in_enemy_half_near_palace || (f == 4) {
                        attackers[us] += 1;
                    }
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (mut cf, mut cr) = (f + df, r + dr);
                        let mut screened = false;
                        while let Some(t) = at(&board, cf, cr) {
                            if !screened && t.is_none() {
                                checks += line_check(cf, cr, 1);
                            }
                            if screened {
                                hits += i32::from(in_palace(cf, cr));
                                if t.is_some() {
                                    break;
                                }
                            } else if t.is_some() {
                                screened = true;
                            }
                            cf += df;
                            cr += dr;
                        }
                    }
                }
                Role::Horse => {
                    s += p.horse_sparse * (16 - n);
                    let mut points = 0;
                    for ((lf, lr), (tf, tr)) in HORSE_STEPS {
                        if at(&board, f + lf, r + lr) == Some(None) {
                            if let Some(t) = at(&board, f + tf, r + tr) {
                                hits += i32::from(in_palace(f + tf, r + tr));
                                if t.is_none_or(|x| x.color != piece.color) {
                                    points += 1;
                                    let (hf, hr) = (f + tf, r + tr);
                                    checks += i32::from(HORSE_STEPS.iter().any(
                                        |&((lf, lr), (jf, jr))| {
                                            (hf + jf, hr + jr) == (gf, gr)
                                                && at(&board, hf + lf, hr + lr) == Some(None)
                                        },
                                    ));
                                }
                            }
                        }
                    }
                    s += p.horse_mobility * points.min(p.horse_mobility_cap);
                    if in_enemy_half_near_palace {
                        attackers[us] += 1;
                    }
                }
                Role::Chariot => {
                    let mut reach = 0;
                    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (mut cf, mut cr) = (f + df, r + dr);
                        while let Some(t) = at(&board, cf, cr) {
                            hits += i32::from(in_palace(cf, cr));
                            if t.is_none() {
                                checks += line_check(cf, cr, 0);
                            }
                            match t {
                                None => reach += 1,
                                Some(x) => {
                                    if x.color != piece.color {
                                        reach += 1;
                                    }
                                    break;
                                }
                            }
                            cf += df;
                            cr += dr;
                        }
                    }
                    s += p.chariot_mobility * reach.min(p.chariot_mobility_cap);
                    if rel >= 4 || (forward != 0 && in_enemy_half_near_palace) {
                        attackers[us] += 1;
                    }
                }
            }
            if hits > 0 || checks > 0 {
                king_attackers[us] += 1;
                danger[us] += p.king_attacker[role as usize]
                    + p.king_hit * hits
                    + p.king_check[role as usize] * checks;
            }
            score[us] += s;
        }
        // Threats, from the exchanges' least attacker: a class below the victim's, and no
        // defender at all.
        let mailbox = pos.mailbox();
        let class = |v: i32| match v {
            100 => 0,
            200 => 1,
            420 | 450 => 2,
            920 => 3,
            _ => 4,
        };
        for (sq, piece) in pos.pieces() {
            let mover_only = p.threats_against_mover_only != 0;
            if piece.role == Role::General || (mover_only && piece.color != pos.side_to_move()) {
                continue;
            }
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            let them = piece.color.index();
            let us = 1 - them;
            if let Some((_, v)) = least_attacker(&mailbox, us, f, r) {
                if class(v) < threat_class(piece.role) {
                    score[us] += p.threat_by_lesser[piece.role as usize];
                }
                if least_attacker(&mailbox, them, f, r).is_none() {
                    score[us] += p.hanging[piece.role as usize];
                }
            }
        }
        for us in 0..2 {
            let them = 1 - us;
            let pressure = (attackers[them] * 2 - guards[us]).max(0);
            score[us] -= p.palace_pressure * pressure * attackers[them] / 2;
            if king_attackers[them] >= 2 {
                let d = (danger[them] + p.king_guard_missing * (4 - guards[us]).max(0))
                    .clamp(0, KING_DANGER_CAP);
                score[us] -= d * d / 256;
            }
        }
        score[0] - score[1]
    }

    /// `p` with piece-square terms all different, so that a point read wrongly shows.
    fn with_tables(mut p: Params) -> Params {
        for (i, x) in [
            &mut p.horse_psq,
            &mut p.chariot_psq,
            &mut p.cannon_psq,
            &mut p.soldier_psq,
        ]
        .into_iter()
        .flatten()
        .enumerate()
        {
            *x = (i as i32 * 37) % 101 - 50;
        }
        p
    }

    /// A network of small pseudo-random weights over Xiangqi's inputs.
    fn random_net(seed: u64) -> Network {
        let mut rng = crate::Rng::new(seed);
        let mut small = |n: usize| rng.below(2 * n + 1) as i16 - n as i16;
        let w1 = (0..NET_INPUTS)
            .map(|_| std::array::from_fn(|_| small(40)))
            .collect();
        let b1 = std::array::from_fn(|_| small(100) + 100);
        let w2 = std::array::from_fn(|_| small(64));
        let psqt = (0..NET_INPUTS).map(|_| i32::from(small(3000))).collect();
        Network::from_weights(w1, b1, w2, 17, psqt)
    }

    #[test]
    fn the_embedded_network_loads_and_sees_a_chariot_down_as_lost_material() {
        let net = default_net().expect("the embedded network");
        assert_eq!(net.inputs(), NET_INPUTS);
        // Red to move at the start, then without its i1 Chariot: it judges the loss.
        let start = Position::startpos();
        let down = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 w - - 0 1",
        )
        .expect("FEN");
        let (even, worse) = (
            <Position as EngineGame>::evaluate(&start, &()),
            <Position as EngineGame>::evaluate(&down, &()),
        );
        // Red, moving first, is ahead at the start: Fairy-Stockfish's search says about
        // +50 cp, and the network's labels were its scores times 2.5.
        assert!((0..300).contains(&even), "{even}");
        assert!(worse < even - 500, "{worse} against {even}");
    }

    #[test]
    fn the_network_sums_carried_through_moves_equal_sums_taken_afresh() {
        let mut rng = crate::Rng::new(5);
        // Without a network nothing is carried.
        nnue::set_thread_net(nnue::NetChoice::Hand);
        assert_eq!(
            <Position as EngineGame>::acc_new(&Position::startpos()),
            None
        );
        nnue::set_thread_net(nnue::NetChoice::Net(std::sync::Arc::new(random_net(1))));
        for game in 0..60 {
            let mut pos = Position::startpos();
            let mut acc = <Position as EngineGame>::acc_new(&pos);
            for _ in 0..(10 + game * 3) {
                let mut moves = ttakji_rules::MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
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
                let eval = <Position as EngineGame>::evaluate(&pos, &());
                assert_eq!(
                    <Position as EngineGame>::evaluate_with(&pos, &(), &acc),
                    eval
                );
                // A null move keeps the sums: they are by colour, not by side to move.
                if let Some(passed) = <Position as EngineGame>::pass(&pos) {
                    assert_eq!(
                        <Position as EngineGame>::evaluate_with(&passed, &(), &acc),
                        <Position as EngineGame>::evaluate(&passed, &())
                    );
                }
            }
        }
        nnue::set_thread_net(nnue::NetChoice::GameDefault);
    }

    #[test]
    fn the_fast_evaluation_agrees_with_the_mailbox_one() {
        let mut rng = crate::Rng::new(9);
        let psq = with_tables(PARAMS);
        let capped = Params {
            chariot_mobility_cap: 6,
            horse_mobility_cap: 3,
            ..KING_CHECKS
        };
        // Every victim role a different power of two, so that a threat missed or counted
        // twice shows.
        let threats = Params {
            threat_by_lesser: [0, 1, 2, 4, 8, 16, 32],
            hanging: [0, 64, 128, 256, 512, 1024, 2048],
            ..PARAMS
        };
        let all = Params {
            threat_by_lesser: threats.threat_by_lesser,
            hanging: threats.hanging,
            threats_against_mover_only: 1,
            ..KING_CHECKS
        };
        for game in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..(20 + game % 120) {
                let mut moves = ttakji_rules::MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
                for p in [
                    PARAMS,
                    HAND_SET,
                    KING_SAFETY,
                    KING_CHECKS,
                    KING_STRONG,
                    psq,
                    capped,
                    THREATS,
                    threats,
                    all,
                ] {
                    assert_eq!(
                        white_score(&pos, &p),
                        white_score_mailbox(&pos, &p),
                        "{}",
                        pos.fen()
                    );
                }
            }
        }
    }

    #[test]
    fn threats_count_lesser_attackers_and_loose_pieces() {
        let p = Params {
            threat_by_lesser: [0, 1, 2, 4, 8, 16, 32],
            hanging: [0, 64, 128, 256, 512, 1024, 2048],
            ..PARAMS
        };
        let with = |p: &Params, fen: &str| {
            let pos = Position::from_fen(fen).expect("FEN");
            white_score(&pos, p) - white_score(&pos, &PARAMS)
        };
        let threats = |fen: &str| with(&p, fen);
        // Red's horse on c5 attacks the black chariot on d7, which nothing defends: a lesser
        // attacker (8) and a loose piece (512).
        assert_eq!(threats("4k4/9/9/3r5/9/2H6/9/9/9/5K3 w - - 0 1"), 8 + 512);
        // Counted against the side to move only, it is there with Black to move, not with Red.
        let mover_only = Params {
            threats_against_mover_only: 1,
            ..p
        };
        assert_eq!(
            with(&mover_only, "4k4/9/9/3r5/9/2H6/9/9/9/5K3 w - - 0 1"),
            0
        );
        assert_eq!(
            with(&mover_only, "4k4/9/9/3r5/9/2H6/9/9/9/5K3 b - - 0 1"),
            8 + 512
        );
        // The advisor on e9 defends the chariot on d8: the lesser attacker only.
        assert_eq!(threats("4k4/4a4/3r5/9/2H6/9/9/9/9/5K3 w - - 0 1"), 8);
        // The red cannon on c1 attacks the loose horse on c10 over its own soldier on c4: a
        // cannon is not lesser than a horse, so only the horse's `hanging` counts.
        assert_eq!(threats("2n2k3/9/9/9/9/9/2P6/9/9/2C1K4 w - - 0 1"), 256);
        // Without the screen the cannon attacks nothing.
        assert_eq!(threats("2n2k3/9/9/9/9/9/9/9/9/2C1K4 w - - 0 1"), 0);
        // Two chariots face each other, each defended by its General: nothing.
        assert_eq!(threats("4rk3/9/9/9/9/9/9/9/9/3KR4 w - - 0 1"), 0);
        // A crossed red soldier on e6 attacks sideways the loose black horse on f6 (1 + …:
        // a horse's 4 + 256); the horse attacks nothing of Red's.
        assert_eq!(threats("3k5/9/9/9/4Pn3/9/9/9/9/5K3 w - - 0 1"), 4 + 256);
    }

    #[test]
    fn the_mobility_caps_bound_what_reach_is_worth() {
        // Red's chariot on d1 reaches the 9 points up its open file and 3 along the rank
        // (its General stands on e1): 12; Red's horse on e3 jumps to 7 points (not onto
        // its own chariot).
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/4H4/9/3RK4 w - - 0 1").expect("FEN");
        let score = |chariot, horse| {
            white_score(
                &pos,
                &Params {
                    chariot_mobility_cap: chariot,
                    horse_mobility_cap: horse,
                    ..PARAMS
                },
            )
        };
        let full = score(17, 8);
        assert_eq!(
            full - score(5, 8),
            PARAMS.chariot_mobility * 7,
            "chariot capped at 5"
        );
        assert_eq!(
            full - score(17, 2),
            PARAMS.horse_mobility * 5,
            "horse capped at 2"
        );
        assert_eq!(
            score(17, 8),
            score(40, 40),
            "a cap above the reach changes nothing"
        );
    }

    #[test]
    fn piece_square_terms_see_both_colours_and_both_wings_alike() {
        let p = with_tables(KING_CHECKS);
        let swap_case = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let mut rng = crate::Rng::new(3);
        for game in 0..50 {
            let mut pos = Position::startpos();
            for _ in 0..(10 + game * 2) {
                let mut moves = ttakji_rules::MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
                let fen = pos.fen();
                let (board, turn) = fen.split_once(' ').expect("board and turn");
                let red = turn.starts_with('w');
                // The side to move stays with the same pieces (so no side not to move is in
                // check); the evaluation itself does not look at it.
                let (same, other) = if red { (" w", " b") } else { (" b", " w") };
                // Red and Black swapped (the ranks turned over), and the files mirrored.
                let swapped: Vec<String> = board
                    .split('/')
                    .rev()
                    .map(|rank| rank.chars().map(swap_case).collect())
                    .collect();
                let mirrored: Vec<String> = board
                    .split('/')
                    .map(|rank| rank.chars().rev().collect())
                    .collect();
                let swapped = Position::from_fen(&(swapped.join("/") + other)).expect("FEN");
                let mirrored = Position::from_fen(&(mirrored.join("/") + same)).expect("FEN");
                let score = white_score(&pos, &p);
                assert_eq!(white_score(&swapped, &p), -score, "{fen}");
                assert_eq!(white_score(&mirrored, &p), score, "{fen}");
            }
        }
    }

    #[test]
    fn palace_attacks_count_only_together() {
        let danger = |fen: &str| {
            let pos = Position::from_fen(fen).expect("FEN");
            white_score(&pos, &KING_SAFETY) - white_score(&pos, &PARAMS)
        };
        // The chariot on d5 attacks d8, d9 and the advisor on d10: one attacker, no danger.
        assert_eq!(danger("2bakab2/9/9/9/9/3R5/9/9/9/3K5 w - - 0 1"), 0);
        // With the horse on f6 attacking e8: (40 + 3·12 + 30 + 12)² / 256 = 54.
        assert_eq!(danger("2bakab2/9/9/9/5N3/3R5/9/9/9/3K5 w - - 0 1"), 54);
        // The cannon on e5 attacks e8, e9 and the General over the screen on e7:
        // (30 + 3·12 + 40 + 3·12)² / 256 = 78.
        assert_eq!(danger("2bakab2/9/9/4p4/9/3RC4/9/9/9/3K5 b - - 0 1"), 78);
        // The chariot on a9 attacks d9, e9 and f9 and can check from e9: with the horse on
        // f6, (40 + 3·12 + 30 + 12)² / 256 = 54, and with the check (… + 50)² / 256 = 110.
        let pos = Position::from_fen("2bakab2/R8/9/9/5N3/9/9/9/9/3K5 w - - 0 1").expect("FEN");
        let base = white_score(&pos, &PARAMS);
        assert_eq!(white_score(&pos, &KING_SAFETY) - base, 54);
        assert_eq!(white_score(&pos, &KING_CHECKS) - base, 110);
    }

    fn see_of(fen: &str, m: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("FEN");
        let mv = pos.parse_uci(m).expect("legal");
        see(&pos, mv)
    }

    #[test]
    fn a_lone_soldier_is_won_a_guarded_one_costs_the_chariot() {
        assert_eq!(see_of("4k4/9/9/9/p8/9/9/9/9/R2K5 w - - 0 1", "a1a6"), 100);
        // The horse on b8 guards a6.
        assert_eq!(
            see_of("4k4/9/1n7/9/p8/9/9/9/9/R2K5 w - - 0 1", "a1a6"),
            -820
        );
    }

    #[test]
    fn a_blocked_horse_leg_does_not_guard() {
        // The red soldier on b7 stands on the horse's leg.
        assert_eq!(
            see_of("4k4/9/1n7/1P7/p8/9/9/9/9/R2K5 w - - 0 1", "a1a6"),
            100
        );
    }

    #[test]
    fn a_cannon_guards_over_a_screen() {
        // The black cannon on a10 guards a6 over the elephant on a8.
        assert_eq!(
            see_of("c3k4/9/b8/9/p8/9/9/9/9/R2K5 w - - 0 1", "a1a6"),
            -820
        );
        // Without the screen it does not.
        assert_eq!(see_of("c3k4/9/9/9/p8/9/9/9/9/R2K5 w - - 0 1", "a1a6"), 100);
    }

    #[test]
    fn a_cannon_takes_back_over_its_own_screen() {
        // Rxa6 Nxa6 Cxa6 (over the soldier on a4): red gives 920 for 100 + 420.
        assert_eq!(
            see_of("4k4/9/1n7/9/p7R/9/P8/9/9/C2K5 w - - 0 1", "i6a6"),
            -400
        );
    }

    #[test]
    fn equal_or_better_captures_are_not_played_out() {
        // Chariot takes a chariot guarded by a horse: at least even.
        assert_eq!(see_of("4k4/9/1n7/9/r8/9/9/9/9/R2K5 w - - 0 1", "a1a6"), 0);
    }

    #[test]
    fn the_general_takes_back_only_an_unguarded_piece() {
        // Rxe9 (an advisor) Kxe9: the chariot is lost.
        assert_eq!(
            see_of("4k4/4a4/9/9/9/9/9/9/4R4/5K3 w - - 0 1", "e2e9"),
            -720
        );
        // With the horse on d7 guarding e9 the General may not take.
        assert_eq!(
            see_of("4k4/4a4/9/3N5/9/9/9/9/4R4/5K3 w - - 0 1", "e2e9"),
            200
        );
    }

    #[test]
    fn a_second_chariot_behind_the_first_takes_back() {
        // Rxa6 Nxa6 Rxa6: 100 - 920 + 420 = -400 for red.
        assert_eq!(
            see_of("4k4/9/1n7/9/p8/9/9/9/R8/R2K5 w - - 0 1", "a2a6"),
            -400
        );
    }

    #[test]
    fn a_quiet_move_onto_a_guarded_point_loses_the_piece() {
        // The horse on b8 guards a6, not a5.
        assert_eq!(see_of("4k4/9/1n7/9/9/9/9/9/9/R2K5 w - - 0 1", "a1a6"), -920);
        assert_eq!(see_of("4k4/9/1n7/9/9/9/9/9/9/R2K5 w - - 0 1", "a1a5"), 0);
    }

    #[test]
    fn the_general_keeps_what_it_takes() {
        // A legal move of the General is never taken back.
        assert_eq!(see_of("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1", "e1e2"), 100);
    }

    #[test]
    fn the_exchange_bound_agrees_with_the_exchange_played_out() {
        // `see_ge` skips the exchange when losing the mover still clears the threshold.
        crate::eval::assert_exchange_bounds_agree::<Position>(30);
    }
}
