//! Shared helpers for the rules crate's integration tests.

use ttakji_rules::{perft, Position};

/// One position of a perft suite file.
#[derive(Debug)]
pub struct PerftCase {
    /// The `id` line.
    pub id: String,
    /// The `fen` line.
    pub fen: String,
    /// `(depth, expected nodes)` from the `perft` lines.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft suite: blocks of `id <name>`, `fen <FEN>` and `perft <depth> <nodes>` lines,
/// separated by blank lines; `#` starts a comment line.
pub fn parse_suite(text: &str) -> Vec<PerftCase> {
    let mut cases = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(PerftCase {
                id: value.to_owned(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "fen" => cases.last_mut().expect("fen before id").fen = value.to_owned(),
            "perft" => {
                let (d, n) = value.split_once(' ').expect("perft <depth> <nodes>");
                let case = cases.last_mut().expect("perft before id");
                case.counts
                    .push((d.parse().expect("depth"), n.trim().parse().expect("nodes")));
            }
            _ => panic!("unknown suite line {line:?}"),
        }
    }
    cases
}

/// Checks every count of the suite up to `max_nodes` nodes (bigger ones are left to
/// `--ignored` runs and the bench). Returns how many counts were checked.
pub fn run_suite<P: Position>(text: &str, max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in parse_suite(text) {
        let pos = P::from_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{}: bad FEN {:?}: {e}", case.id, case.fen));
        assert_eq!(pos.fen(), case.fen, "{}: FEN round trip", case.id);
        for &(depth, nodes) in &case.counts {
            if nodes > max_nodes {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{} perft {depth}", case.id);
            checked += 1;
        }
    }
    assert!(checked > 0, "suite checked nothing");
    checked
}
