//! Unit tests of the checkers module (rules, notation, FEN).
