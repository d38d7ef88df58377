//! False-positive theory of Bloom filters, for both layouts.
//!
//! Notation (Christensen, Roginsky and Jimeno, IPL 110 (2010), "CRJ" below):
//! `m` bits, `n` inserted items, `k` hash functions (probes), `N = k n` balls.
//!
//! * [`classic`] and [`classic_exp`]: CRJ Eq. 1 in both forms.
//! * [`bloom1970`]: CRJ Eq. 19, which is the same expression as
//!   [`partitioned_exact`], the exact rate of the partitioned layout.
//! * Exact rate of the standard layout (one shared array):
//!   [`standard_exact_table`] (CRJ Fig. 1 + Eq. 8 + Eq. 17),
//!   [`standard_exact_stirling`] (Bose et al., CRJ Eq. 20/21, exact rationals),
//!   [`standard_exact`] (fast: cost independent of m and n).
//! * [`optimal`]: conventional and exact-minimising k per layout.
//! * [`sizing`]: smallest filter meeting a target rate, per layout and device.
//! * [`survey`]: Broder–Mitzenmacher §2.4/§2.5 estimates.
//! * [`counting`]: counting filters (contract §7): counter saturation and
//!   its cost, the narrowest counter for a target, deletes of absent keys.
//! * [`images`]: what an image of the partitioned layout says: items, design
//!   load, intersection of two key sets, with standard errors.
//!
//! docs/theory.md gives the derivations and why the partitioned formula is exact.

pub mod counting;
mod exact;
mod formulas;
pub mod images;
pub mod optimal;
pub mod sizing;
pub mod survey;

pub use exact::{
    falling_moment_weights, ratio_to_f64, standard_exact, standard_exact_branch,
    standard_exact_stirling, standard_exact_stirling_f64, standard_exact_table,
    standard_exact_table_generic, stirling2, table_cost, FAST_MAX_K, FAST_MAX_M,
};
pub use formulas::{
    bloom1970, classic, classic_exp, classic_rational, partitioned_exact,
    partitioned_exact_rational,
};

use std::fmt;

/// Invalid arguments to a theory function.
#[derive(Debug, Clone, PartialEq)]
pub enum TheoryError {
    /// A parameter outside its allowed range.
    OutOfRange {
        parameter: &'static str,
        value: String,
        allowed: String,
    },
    /// The partitioned layout needs m to be a whole number of k equal banks.
    NotMultiple { m: u64, k: u32 },
    /// No configuration meets the target.
    Unreachable(String),
}

impl fmt::Display for TheoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TheoryError::OutOfRange {
                parameter,
                value,
                allowed,
            } => {
                write!(f, "{parameter} = {value} is out of range (allowed: {allowed})")
            }
            TheoryError::NotMultiple { m, k } => write!(
                f,
                "m = {m} is not a multiple of k = {k}: the partitioned layout splits m into k equal banks of m/k bits"
            ),
            TheoryError::Unreachable(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for TheoryError {}

pub(crate) fn check_m_k(m: u64, k: u32) -> Result<(), TheoryError> {
    if m == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "m",
            value: "0".into(),
            allowed: ">= 1 bit".into(),
        });
    }
    if k == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "k",
            value: "0".into(),
            allowed: ">= 1 hash function".into(),
        });
    }
    Ok(())
}

/// Relative difference |a - b| / max(|a|, |b|), 0 when both are 0.
pub fn rel_diff(a: f64, b: f64) -> f64 {
    let s = a.abs().max(b.abs());
    if s == 0.0 {
        0.0
    } else {
        (a - b).abs() / s
    }
}
