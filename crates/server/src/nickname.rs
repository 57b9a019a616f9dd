//! Guest nicknames: what a visitor may call themselves.
//!
//! A nickname is trimmed and put in Unicode NFC form, then must be 2–20 characters of letters,
//! combining marks, decimal digits, `_` or `-`, in any script (Thai, Devanagari, Han, Latin…),
//! not starting with a mark, `_` or `-`. Names that could pass for the site or its staff
//! (`admin`, `ttakji`, `ai`, `system`, …) are refused whatever their case or separators.

use unicode_general_category::{get_general_category, GeneralCategory as Gc};
use unicode_normalization::UnicodeNormalization;

/// Fewest characters in a nickname.
pub const MIN_CHARS: usize = 2;
/// Most characters in a nickname.
pub const MAX_CHARS: usize = 20;

/// Words no guest may take (compared in lower case, without `_` and `-`).
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "ai",
    "anonymous",
    "bot",
    "moderator",
    "mod",
    "root",
    "server",
    "staff",
    "support",
    "system",
    "ttakji",
];

/// Why a nickname was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NicknameError {
    /// Fewer than [`MIN_CHARS`] characters after trimming.
    #[error("the nickname must have at least {MIN_CHARS} characters")]
    TooShort,
    /// More than [`MAX_CHARS`] characters.
    #[error("the nickname must have at most {MAX_CHARS} characters")]
    TooLong,
    /// A character other than letters, marks, digits, `_` and `-`.
    #[error("the nickname may only contain letters, digits, '_' and '-' (found {0:?})")]
    BadChar(char),
    /// Starts with a combining mark, `_` or `-`.
    #[error("the nickname must start with a letter or a digit")]
    BadStart,
    /// A reserved word.
    #[error("this nickname is reserved")]
    Reserved,
}

fn allowed(c: char) -> bool {
    c == '_'
        || c == '-'
        || matches!(
            get_general_category(c),
            Gc::UppercaseLetter
                | Gc::LowercaseLetter
                | Gc::TitlecaseLetter
                | Gc::ModifierLetter
                | Gc::OtherLetter
                | Gc::NonspacingMark
                | Gc::SpacingMark
                | Gc::EnclosingMark
                | Gc::DecimalNumber
        )
}

fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark
    )
}

/// Checks a nickname and returns it trimmed and normalised.
pub fn validate(raw: &str) -> Result<String, NicknameError> {
    let name: String = raw.trim().nfc().collect();
    let count = name.chars().count();
    if count < MIN_CHARS {
        return Err(NicknameError::TooShort);
    }
    if count > MAX_CHARS {
        return Err(NicknameError::TooLong);
    }
    if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
        return Err(NicknameError::BadChar(bad));
    }
    if name
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c == '-' || is_mark(c))
    {
        return Err(NicknameError::BadStart);
    }
    let bare: String = name
        .chars()
        .filter(|&c| c != '_' && c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    if RESERVED.contains(&bare.as_str()) {
        return Err(NicknameError::Reserved);
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_any_script_are_fine() {
        for name in [
            "somchai",
            "สมชาย",
            "น้องเมย์",
            "राहुल",
            "प्रिया_99",
            "王小明",
            "김민준",
            "Ана-Мария",
            "x9",
            "user_name-1",
        ] {
            assert_eq!(validate(name).as_deref(), Ok(name), "{name}");
        }
    }

    #[test]
    fn names_are_trimmed_and_normalised() {
        assert_eq!(validate("  alice \t").as_deref(), Ok("alice"));
        // "é" as e + combining acute becomes the single composed character.
        assert_eq!(validate("Jose\u{301}").as_deref(), Ok("Jos\u{e9}"));
    }

    #[test]
    fn length_is_counted_in_characters() {
        assert_eq!(validate("a"), Err(NicknameError::TooShort));
        assert_eq!(validate("   "), Err(NicknameError::TooShort));
        assert_eq!(validate(&"ก".repeat(20)).map(|n| n.chars().count()), Ok(20));
        assert_eq!(validate(&"a".repeat(21)), Err(NicknameError::TooLong));
    }

    #[test]
    fn punctuation_spaces_and_symbols_are_refused() {
        for (name, c) in [
            ("two words", ' '),
            ("a<script>", '<'),
            ("dot.name", '.'),
            ("emoji😀", '😀'),
            ("zero\u{200b}width", '\u{200b}'),
            ("tab\tin", '\t'),
        ] {
            assert_eq!(validate(name), Err(NicknameError::BadChar(c)), "{name}");
        }
    }

    #[test]
    fn names_must_start_with_a_letter_or_digit() {
        assert_eq!(validate("_alice"), Err(NicknameError::BadStart));
        assert_eq!(validate("-bob"), Err(NicknameError::BadStart));
        assert_eq!(validate("\u{e31}abc"), Err(NicknameError::BadStart));
    }

    #[test]
    fn reserved_words_are_refused_in_any_case_or_spelling() {
        for name in [
            "admin", "ADMIN", "Ad_min", "ttakji", "TTAKJI", "ai", "A-I", "system",
        ] {
            assert_eq!(validate(name), Err(NicknameError::Reserved), "{name}");
        }
        assert!(validate("aiko").is_ok());
    }
}
