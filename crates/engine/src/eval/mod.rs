//! Evaluation, one module per game, each with all its parameters in one `Params` table
//! (`PARAMS`) so that tuning touches one place.

pub mod checkers;
pub mod makruk;
pub mod xiangqi;
