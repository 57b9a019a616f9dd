//! Xiangqi evaluation: material (soldiers gain across the river, cannons lose and horses gain
//! as the board empties), piece-square terms, chariot and horse mobility, and General safety
//! (attackers near the palace against the advisors and elephants that guard it).

use ttakji_rules::xiangqi::{Color, Move, Piece, Position, Role};

use crate::EngineGame;

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
    /// Cannon value change per piece on the board beyond 16 (cannons like a full board).
    pub cannon_crowd: i32,
    /// Horse value change per piece on the board below 16.
    pub horse_sparse: i32,
    /// Per enemy attacker (chariot, horse, cannon, crossed soldier) in our half near the
    /// palace files, beyond what the guards (advisors, elephants) hold.
    pub palace_pressure: i32,
    /// The General off its back rank, per rank.
    pub general_raised: i32,
    /// For the side to move.
    pub tempo: i32,
}

/// The parameters in use (hand-set starting values; see `examples/tune.rs`).
pub const PARAMS: Params = Params {
    value: [0, 200, 200, 420, 920, 450, 90],
    soldier_crossed: 80,
    soldier_rank: [0, 0, 0, 0, 0, 0, 15, 30, 30, -30],
    soldier_center: 15,
    file_center: [0, 0, 0, 6, 0, 6, 0],
    advance: [0, 0, 0, 6, 2, 0, 0],
    chariot_mobility: 3,
    horse_mobility: 6,
    cannon_crowd: 3,
    horse_sparse: 3,
    palace_pressure: 25,
    general_raised: 20,
    tempo: 10,
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

#[inline]
fn at(board: &[Option<Piece>; 90], f: i32, r: i32) -> Option<Option<Piece>> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| board[(r * 9 + f) as usize])
}

/// Material of `color` without the General, at base values.
pub fn material(pos: &Position, color: Color) -> i32 {
    pos.pieces()
        .filter(|(_, p)| p.color == color)
        .map(|(_, p)| PARAMS.value[p.role as usize])
        .sum()
}

fn white_score(pos: &Position, p: &Params) -> i32 {
    let mut board = [None; 90];
    let mut n = 0i32;
    for (sq, piece) in pos.pieces() {
        board[sq.index()] = Some(piece);
        n += 1;
    }
    let mut score = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut guards = [0i32; 2];
    for (i, slot) in board.iter().enumerate() {
        let Some(piece) = *slot else { continue };
        let us = piece.color.index();
        let f = (i % 9) as i32;
        let r = (i / 9) as i32;
        let rel = if piece.color == Color::Red { r } else { 9 - r };
        let forward = if piece.color == Color::Red { 1 } else { -1 };
        let role = piece.role;
        let mut s = p.value[role as usize];
        s += p.file_center[role as usize] * (4 - (f - 4).abs());
        s += p.advance[role as usize] * rel.min(7);
        let in_enemy_half_near_palace = rel >= 5 && (2..=6).contains(&f);
        match role {
            Role::General => s -= p.general_raised * rel,
            Role::Advisor | Role::Elephant => guards[us] += 1,
            Role::Soldier => {
                if rel >= 5 {
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
            }
            Role::Horse => {
                s += p.horse_sparse * (16 - n);
                for ((lf, lr), (tf, tr)) in HORSE_STEPS {
                    if at(&board, f + lf, r + lr) == Some(None) {
                        if let Some(t) = at(&board, f + tf, r + tr) {
                            if t.is_none_or(|x| x.color != piece.color) {
                                s += p.horse_mobility;
                            }
                        }
                    }
                }
                if in_enemy_half_near_palace {
                    attackers[us] += 1;
                }
            }
            Role::Chariot => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (mut cf, mut cr) = (f + df, r + dr);
                    while let Some(t) = at(&board, cf, cr) {
                        match t {
                            None => s += p.chariot_mobility,
                            Some(x) => {
                                if x.color != piece.color {
                                    s += p.chariot_mobility;
                                }
                                break;
                            }
                        }
                        cf += df;
                        cr += dr;
                    }
                }
                if rel >= 4 || (forward != 0 && in_enemy_half_near_palace) {
                    attackers[us] += 1;
                }
            }
        }
        score[us] += s;
    }
    for us in 0..2 {
        let them = 1 - us;
        let pressure = (attackers[them] * 2 - guards[us]).max(0);
        score[us] -= p.palace_pressure * pressure * attackers[them] / 2;
    }
    score[0] - score[1]
}

impl EngineGame for Position {
    fn evaluate(pos: &Self, _state: &()) -> i32 {
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

    fn null_move_ok(pos: &Self) -> bool {
        let us = pos.side_to_move();
        pos.pieces().any(|(_, p)| {
            p.color == us && matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon)
        })
    }

    fn may_end(_pos: &Self, _state: &(), has_moves: bool, zeroing: bool) -> bool {
        !has_moves || zeroing
    }
}

crate::eval::tunable!(Params {
    arrays: [value, soldier_rank, file_center, advance],
    scalars: [
        soldier_crossed,
        soldier_center,
        chariot_mobility,
        horse_mobility,
        cannon_crowd,
        horse_sparse,
        palace_pressure,
        general_raised,
        tempo
    ]
});
