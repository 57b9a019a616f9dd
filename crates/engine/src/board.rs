//! The engine's position wrapper: the position, the game state and the history the search
//! walks, with repetition (and Xiangqi's perpetual check) detected along the path.

use ttakji_game::{CountAction, Game, Outcome};
use ttakji_rules::Side;

use crate::EngineGame;

/// One position on the path from the start of the game to the node being searched.
#[derive(Clone, Debug)]
pub(crate) struct Node<P: EngineGame> {
    pub pos: P,
    pub state: P::State,
    /// Zobrist hash of the board (repetition).
    pub zobrist: u64,
    /// Transposition-table key: board and result-relevant state.
    pub key: u64,
    /// What the evaluation carries along the path ([`EngineGame::Acc`]).
    pub acc: P::Acc,
    pub in_check: bool,
    /// Whether the move that led here can never be undone (or was a null move, or this is the
    /// oldest node kept): positions before it cannot repeat after it.
    pub boundary: bool,
    /// Plies since the start of the game.
    pub game_ply: usize,
}

impl<P: EngineGame> Node<P> {
    fn new(pos: P, state: P::State, acc: P::Acc, boundary: bool, game_ply: usize) -> Node<P> {
        let zobrist = pos.zobrist();
        Node {
            key: zobrist ^ P::state_key(&state),
            zobrist,
            acc,
            in_check: pos.is_check(),
            pos,
            state,
            boundary,
            game_ply,
        }
    }
}

/// The path: game history since the last irreversible move, then the search path.
#[derive(Clone, Debug)]
pub(crate) struct Board<P: EngineGame> {
    nodes: Vec<Node<P>>,
    /// Index of the root (the game's current position).
    root: usize,
}

impl<P: EngineGame> Board<P> {
    pub fn from_game(game: &Game<P>) -> Board<P> {
        let history = game.history();
        // Keep the plies since the last irreversible move, and at least the one before the
        // root (Makruk's adjudication looks at the state before the last move).
        let mut first = history.len().saturating_sub(1);
        while first > 0 && !history[first - 1].zeroing {
            first -= 1;
        }
        let mut nodes = Vec::with_capacity(history.len() - first + crate::MAX_PLY + 2);
        for (i, (before, ply)) in game.replay().enumerate().skip(first) {
            let boundary = i == first || (i > 0 && history[i - 1].zeroing);
            let acc = P::acc_new(&before);
            nodes.push(Node::new(
                before,
                ply.state_before.clone(),
                acc,
                boundary,
                game.start_ply() + i,
            ));
        }
        let boundary = history.last().is_none_or(|p| p.zeroing);
        nodes.push(Node::new(
            game.position().clone(),
            game.state().clone(),
            P::acc_new(game.position()),
            boundary,
            game.ply(),
        ));
        let root = nodes.len() - 1;
        Board { nodes, root }
    }

    #[inline]
    pub fn current(&self) -> &Node<P> {
        &self.nodes[self.nodes.len() - 1]
    }

    /// The game state before the last move, if known.
    #[inline]
    pub fn prev_state(&self) -> Option<&P::State> {
        let n = self.nodes.len();
        (n >= 2).then(|| &self.nodes[n - 2].state)
    }

    /// Plies from the root.
    #[inline]
    pub fn ply(&self) -> usize {
        self.nodes.len() - 1 - self.root
    }

    /// Plays `m` (legal here) with `action`; an action the rules refuse is dropped.
    ///
    /// The child starts as a copy of its parent made where it will lie, and is played on in
    /// place: building it aside and moving it in copied each node's half a kilobyte three
    /// or four times, a tenth of Makruk's search time.
    #[inline]
    pub fn push(&mut self, m: P::Move, action: Option<CountAction>) {
        let n = self.nodes.len();
        self.nodes.extend_from_within(n - 1..n);
        let [.., parent, child] = self.nodes.as_mut_slice() else {
            return;
        };
        child.pos.play_unchecked(m);
        if P::update(&mut child.state, &parent.pos, m, &child.pos, action).is_err() {
            child.state.clone_from(&parent.state);
            // Without an action the update cannot fail for a legal move; if it ever did,
            // the old state is the best guess.
            if P::update(&mut child.state, &parent.pos, m, &child.pos, None).is_err() {
                child.state.clone_from(&parent.state);
            }
        }
        P::acc_update(&mut child.acc, &parent.pos, m, &child.pos);
        child.boundary = parent.pos.is_zeroing(m);
        child.game_ply = parent.game_ply + 1;
        child.zobrist = child.pos.zobrist();
        child.key = child.zobrist ^ P::state_key(&child.state);
        child.in_check = child.pos.is_check();
    }

    /// Passes the move (null move), if the game allows building such a position.
    pub fn push_null(&mut self) -> bool {
        let parent = self.current();
        let Some(pos) = P::pass(&parent.pos) else {
            return false;
        };
        let node = Node::new(
            pos,
            parent.state.clone(),
            parent.acc.clone(),
            true,
            parent.game_ply + 1,
        );
        self.nodes.push(node);
        true
    }

    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.nodes.len() > self.root + 1);
        self.nodes.pop();
    }

    /// Whether the current node ends the game by repetition: the position occurred before
    /// on the search path (twofold, scored as if the repetition went on) or twice in the
    /// game. Returns the outcome, with Xiangqi's perpetual checker losing.
    pub fn repetition(&self) -> Option<Outcome> {
        let n = self.nodes.len() - 1;
        let hash = self.nodes[n].zobrist;
        let mut count = 1;
        let mut first = n;
        let mut in_search = false;
        let mut j = n;
        while j >= 2 && !self.nodes[j].boundary && !self.nodes[j - 1].boundary {
            j -= 2;
            if self.nodes[j].zobrist == hash {
                count += 1;
                first = j;
                if j >= self.root {
                    in_search = true;
                    break;
                }
                if count >= 3 {
                    break;
                }
            }
        }
        if !in_search && count < 3 {
            return None;
        }
        if P::PERPETUAL_CHECK_LOSES {
            let mut always = [true, true];
            for k in first + 1..=n {
                if !self.nodes[k].in_check {
                    always[self.nodes[k - 1].pos.turn().index()] = false;
                }
            }
            match always {
                [true, false] => {
                    return Some(Outcome::win(
                        Side::Second,
                        ttakji_game::Reason::PerpetualCheck,
                    ))
                }
                [false, true] => {
                    return Some(Outcome::win(
                        Side::First,
                        ttakji_game::Reason::PerpetualCheck,
                    ))
                }
                _ => {}
            }
        }
        Some(Outcome::draw(ttakji_game::Reason::Repetition))
    }
}
