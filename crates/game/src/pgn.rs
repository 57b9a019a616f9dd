//! Game records: PGN for Makruk and Xiangqi (with the `[Variant]` tag as pychess and
//! Fairy-Stockfish tools read it), PDN for checkers (`[GameType "21"]`). Written from a
//! [`Game`], and read back into one, move by move, with every move checked.

use std::fmt::Write as _;

use ttakji_rules::{Side, Variant};

use crate::{AnyGame, CountAction, Game, GameError, Rules};

/// PGN/PDN tags to write besides the ones the game itself decides (`Result`, `Variant`,
/// `GameType`, `FEN`, `SetUp`, `Termination`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    /// `Event`.
    pub event: Option<String>,
    /// `Site`.
    pub site: Option<String>,
    /// `Date`, as `YYYY.MM.DD`.
    pub date: Option<String>,
    /// The name of the side that moves first (White, Red, or Black in checkers).
    pub first: Option<String>,
    /// The name of the other side.
    pub second: Option<String>,
    /// Any other tags, written in this order after the standard ones.
    pub extra: Vec<(String, String)>,
}

/// A record that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Tags or movetext are not well-formed.
    #[error("malformed record: {0}")]
    Syntax(String),
    /// Neither a `Variant` nor a `GameType` tag says which game this is.
    #[error("unknown or missing variant: {0}")]
    Variant(String),
    /// The `FEN` tag is not a valid position.
    #[error(transparent)]
    Fen(#[from] ttakji_rules::FenError),
    /// A move that cannot be played.
    #[error("move {ply} ({token:?}): {error}")]
    Move {
        /// Ply number, from 1.
        ply: usize,
        /// The move as written.
        token: String,
        /// Why it cannot be played.
        error: GameError,
    },
}

/// A record read back: its tags (as written) and the game replayed from it.
#[derive(Clone, Debug)]
pub struct Record {
    /// Every tag, in order.
    pub tags: Vec<(String, String)>,
    /// The game, with every move played.
    pub game: AnyGame,
    /// The `Result` tag or the movetext's result token, if any.
    pub result: Option<String>,
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes `game` as PGN (Makruk, Xiangqi) or PDN (checkers).
pub(crate) fn write<P: Rules>(game: &Game<P>, tags: &Tags) -> String {
    let variant = P::VARIANT;
    let result = game.outcome().map_or("*", |o| o.result());
    let (first_tag, second_tag) = match variant {
        Variant::Checkers => ("Black", "White"),
        _ => ("White", "Black"),
    };
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", quote(value));
    };
    tag("Event", tags.event.as_deref().unwrap_or("Casual game"));
    tag("Site", tags.site.as_deref().unwrap_or("Ttakji"));
    tag("Date", tags.date.as_deref().unwrap_or("????.??.??"));
    tag("Round", "-");
    tag(first_tag, tags.first.as_deref().unwrap_or("?"));
    tag(second_tag, tags.second.as_deref().unwrap_or("?"));
    tag("Result", result);
    match variant {
        Variant::Checkers => tag("GameType", "21"),
        _ => tag("Variant", variant.name()),
    }
    if *game.initial() != P::startpos() {
        tag("FEN", &game.initial().fen());
        if variant != Variant::Checkers {
            tag("SetUp", "1");
        }
    }
    if let Some(o) = game.outcome() {
        tag("Termination", o.reason.name());
    }
    for (name, value) in &tags.extra {
        tag(name, value);
    }
    out.push('\n');

    let mut line = String::new();
    let mut push = |out: &mut String, token: &str| {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
    };
    for (i, (before, ply)) in game.replay().enumerate() {
        let number = (game.start_ply() + i) / 2 + 1;
        if before.turn() == Side::First {
            push(&mut out, &format!("{number}."));
        } else if i == 0 {
            push(&mut out, &format!("{number}..."));
        }
        push(&mut out, &before.record_san(ply.mv));
        match ply.action {
            Some(CountAction::Start) => push(&mut out, "{[%count start]}"),
            Some(CountAction::Stop) => push(&mut out, "{[%count stop]}"),
            None => {}
        }
    }
    push(&mut out, result);
    out.push_str(&line);
    out.push('\n');
    out
}

#[derive(Debug, PartialEq, Eq)]
enum Token<'a> {
    Move(&'a str),
    Count(CountAction),
    Result(&'a str),
}

const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"];

/// Splits movetext into moves, count comments and the result; skips move numbers, comments,
/// variations and NAGs.
fn tokenize(text: &str) -> Result<Vec<Token<'_>>, RecordError> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'{' => {
                let end = text[i..]
                    .find('}')
                    .ok_or_else(|| RecordError::Syntax("unclosed comment".into()))?;
                let comment = &text[i + 1..i + end];
                if depth == 0 {
                    if comment.contains("[%count start]") {
                        tokens.push(Token::Count(CountAction::Start));
                    } else if comment.contains("[%count stop]") {
                        tokens.push(Token::Count(CountAction::Stop));
                    }
                }
                i += end + 1;
            }
            b'}' => return Err(RecordError::Syntax("'}' without '{'".into())),
            b';' => i = text[i..].find('\n').map_or(bytes.len(), |e| i + e + 1),
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| RecordError::Syntax("unbalanced ')'".into()))?;
                i += 1;
            }
            _ if text[i..].starts_with(char::is_whitespace) => {
                i += text[i..].chars().next().map_or(1, char::len_utf8);
            }
            _ => {
                let end = text[i..]
                    .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                    .map_or(text.len(), |e| i + e);
                let word = &text[i..end];
                i = end;
                if depth > 0 || word.starts_with('$') {
                    continue;
                }
                // Move numbers: "12." "12..." or glued "12.e4".
                let after_digits = word.trim_start_matches(|ch: char| ch.is_ascii_digit());
                let word = if after_digits.len() < word.len() && after_digits.starts_with('.') {
                    after_digits.trim_start_matches('.')
                } else {
                    word
                };
                if word.is_empty() {
                    continue;
                }
                if RESULTS.contains(&word) {
                    tokens.push(Token::Result(word));
                } else {
                    tokens.push(Token::Move(word));
                }
            }
        }
    }
    if depth != 0 {
        return Err(RecordError::Syntax("unclosed variation".into()));
    }
    Ok(tokens)
}

fn strip_annotations(s: &str) -> &str {
    s.trim_end_matches(['+', '#', '!', '?'])
}

/// Resolves a move as written (record SAN, move-list notation or engine notation).
fn resolve<P: Rules>(pos: &P, token: &str) -> Result<P::Move, GameError> {
    let wanted = strip_annotations(token);
    let mut moves = ttakji_rules::MoveList::new();
    pos.legal_moves(&mut moves);
    for &m in &moves {
        if strip_annotations(&pos.record_san(m)) == wanted
            || strip_annotations(&pos.san(m)) == wanted
        {
            return Ok(m);
        }
    }
    Ok(pos.parse_uci(wanted)?)
}

fn replay<P: Rules>(
    game: &mut Game<P>,
    tokens: &[Token<'_>],
) -> Result<Option<String>, RecordError> {
    let mut result = None;
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            Token::Result(r) => result = Some(r.to_owned()),
            Token::Count(_) => {}
            Token::Move(token) => {
                let action = match tokens.get(i + 1) {
                    Some(Token::Count(a)) => Some(*a),
                    _ => None,
                };
                let ply = game.ply() + 1;
                let err = |error| RecordError::Move {
                    ply,
                    token: token.to_owned(),
                    error,
                };
                let m = resolve(game.position(), token).map_err(err)?;
                game.play(m, action).map_err(err)?;
            }
        }
        i += 1;
    }
    Ok(result)
}

/// Reads a PGN/PDN record. The game comes from the `Variant` tag (`GameType "21"` or the
/// `W`/`B` PDN FEN means checkers), or `default` when there is none.
pub fn parse_record(text: &str, default: Option<Variant>) -> Result<Record, RecordError> {
    let mut tags = Vec::new();
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if !rest.starts_with('[') {
            break;
        }
        let end = rest
            .find(']')
            .ok_or_else(|| RecordError::Syntax("unclosed tag".into()))?;
        let inner = rest[1..end].trim();
        let (name, value) = inner
            .split_once(char::is_whitespace)
            .ok_or_else(|| RecordError::Syntax(format!("tag without value: [{inner}]")))?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(|| RecordError::Syntax(format!("tag value not quoted: [{inner}]")))?;
        tags.push((
            name.to_owned(),
            value.replace("\\\"", "\"").replace("\\\\", "\\"),
        ));
        rest = &rest[end + 1..];
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let variant = match (tag("Variant"), tag("GameType")) {
        (Some(v), _) => v.parse().map_err(|_| RecordError::Variant(v.to_owned()))?,
        (None, Some(t)) if t.split(',').next().map(str::trim) == Some("21") => Variant::Checkers,
        (None, Some(t)) => return Err(RecordError::Variant(format!("GameType {t}"))),
        (None, None) => default.ok_or_else(|| RecordError::Variant("no Variant tag".into()))?,
    };
    let mut game = match tag("FEN") {
        Some(fen) => AnyGame::from_fen(variant, fen)?,
        None => AnyGame::new(variant),
    };
    let tokens = tokenize(rest)?;
    let movetext_result = match &mut game {
        AnyGame::Makruk(g) => replay(g, &tokens)?,
        AnyGame::Xiangqi(g) => replay(g, &tokens)?,
        AnyGame::Checkers(g) => replay(g, &tokens)?,
    };
    let result = tag("Result").map(str::to_owned).or(movetext_result);
    Ok(Record { tags, game, result })
}
