//! `SEARCH=flag,flag,…` for the examples that search one position at a time: `s4` (the
//! session-4 parameters), `no-FEATURE` (one feature off, see
//! [`ttakji_engine::SearchParams::without`]), `cont` (continuation history on), `seN`
//! (singular extensions from depth N) and any feature [`ttakji_engine::SearchParams::with`]
//! turns on or sets (`qchecks`, `extall`, `partial`, `cxN`, `rchecks`, `counter`, `capthist`,
//! `lmrdivN`, `lmrbaseN`, `cprN`, `cutrN`, `nmpdN`, `lmpsf`, `see`, `seeprune`, `corr`,
//! `tteval`, `threat`), applied in
//! order to the game's default parameters.

use ttakji_engine::{default_params, SearchParams, S4_PARAMS};
use ttakji_rules::Variant;

/// The parameters `SEARCH` asks for, or `None` when it is unset.
#[allow(dead_code)] // `match` takes its parameters as suffixes instead
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

/// The network in the file `path`, refused unless its inputs are `variant`'s (a network of
/// another game would evaluate nonsense, not fail): what `match`'s `/net@`, `NET=` below and
/// `nnue check` read networks with.
#[allow(dead_code)] // not every example that includes this module reads networks
pub fn read_net(path: &str, variant: Variant) -> Result<ttakji_engine::nnue::Network, String> {
    use ttakji_engine::{makruk_eval, nnue::Network, xiangqi_eval};
    let inputs = match variant {
        Variant::Makruk => makruk_eval::NET_INPUTS,
        Variant::Xiangqi => xiangqi_eval::NET_INPUTS,
        Variant::Checkers => return Err(format!("{path}: checkers has no network")),
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let net = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
    if net.inputs() != inputs {
        return Err(format!(
            "{path}: a network of {} inputs, {variant}'s has {inputs}",
            net.inputs()
        ));
    }
    Ok(net)
}

/// Sets this thread's Makruk and Xiangqi evaluation parameters from
/// `MAKRUK_PARAMS=name=value,...` and `XIANGQI_PARAMS=name=value,...` (tuning names:
/// `value[3]`, `tempo`, ...), where they are set, and its network for `variant` from
/// `NET=FILE` (`hand`: none, which `MAKRUK_PARAMS` implies without `NET`).
#[allow(dead_code)] // not every example that reads `SEARCH` takes evaluation parameters
pub fn eval_params_from_env(variant: Variant) -> Result<(), String> {
    use ttakji_engine::{
        makruk_eval,
        nnue::{set_thread_net, NetChoice},
        xiangqi_eval,
    };
    let makruk = params_from_env("MAKRUK_PARAMS", makruk_eval::PARAMS)?;
    match std::env::var("NET").ok().as_deref() {
        Some("hand") => set_thread_net(NetChoice::Hand),
        Some(path) => {
            let net = read_net(path, variant)?;
            set_thread_net(NetChoice::Net(std::sync::Arc::new(net)));
        }
        // Hand-written parameters are measured with the hand-written evaluation, not under
        // Makruk's network.
        None if makruk.is_some() => set_thread_net(NetChoice::Hand),
        None => {}
    }
    if let Some(p) = makruk {
        makruk_eval::set_thread_params(Some(p));
    }
    if let Some(p) = params_from_env("XIANGQI_PARAMS", xiangqi_eval::PARAMS)? {
        xiangqi_eval::set_thread_params(Some(p));
    }
    Ok(())
}

/// `base` with the parameters of the environment variable `var` set, if it is set.
#[allow(dead_code)] // as `eval_params_from_env`, its only caller
fn params_from_env<T: ttakji_engine::Tunable>(var: &str, base: T) -> Result<Option<T>, String> {
    let Ok(list) = std::env::var(var) else {
        return Ok(None);
    };
    let mut p = base;
    for item in list.split(',').filter(|s| !s.is_empty()) {
        p = set_param(p, item)?;
    }
    Ok(Some(p))
}

/// `p` with one parameter set from `name=value` (a tuning name: `value[3]`, `tempo`, ...).
#[allow(dead_code)] // not every example that includes this file sets parameters
pub fn set_param<T: ttakji_engine::Tunable>(mut p: T, item: &str) -> Result<T, String> {
    let (name, x) = item
        .split_once('=')
        .ok_or_else(|| format!("{item}: expected name=value"))?;
    let i = T::names()
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| format!("no evaluation parameter {name}"))?;
    let mut v = p.to_vec();
    v[i] = x.parse().map_err(|_| format!("{item}: not a number"))?;
    p.set_from(&v);
    Ok(p)
}
