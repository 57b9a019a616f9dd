//! `SEARCH=flag,flag,…` for the examples that search one position at a time: `s4` (the
//! session-4 parameters), `no-FEATURE` (one feature off, see
//! [`ttakji_engine::SearchParams::without`]), `cont` (continuation history on), `seN`
//! (singular extensions from depth N) and any feature [`ttakji_engine::SearchParams::with`]
//! turns on or sets (`qchecks`, `extall`, `partial`, `cxN`, `rchecks`, `lmrdivN`,
//! `lmrbaseN`), applied in order to the game's default parameters.

use ttakji_engine::{default_params, SearchParams, S4_PARAMS};
use ttakji_rules::Variant;

/// The parameters `SEARCH` asks for, or `None` when it is unset.
pub fn from_env(variant: Variant) -> Result<Option<SearchParams>, String> {
    let Ok(flags) = std::env::var("SEARCH") else {
        return Ok(None);
    };
    let mut p = default_params(variant);
    for f in flags.split(',').filter(|f| !f.is_empty()) {
        p = match f {
            "s4" => S4_PARAMS,
            "cont" => SearchParams {
                cont_history: true,
                ..p
            },
            _ if f.starts_with("se") && f[2..].parse::<i32>().is_ok() => SearchParams {
                singular_depth: f[2..].parse().unwrap_or(0),
                ..p
            },
            _ => f
                .strip_prefix("no-")
                .map_or_else(|| p.with(f), |feature| p.without(feature))
                .ok_or_else(|| format!("unknown SEARCH flag {f}"))?,
        };
    }
    Ok(Some(p))
}
