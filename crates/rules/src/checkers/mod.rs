//! Checkers: placeholder until the module lands.
