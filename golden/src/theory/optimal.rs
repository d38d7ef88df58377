//! Number of hash functions: the conventional choice and the exact minimiser, per layout.

use super::{check_m_k, partitioned_exact, standard_exact, TheoryError, FAST_MAX_K};

/// The filter layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// k banks of m/k bits, one probe per bank (the hardware).
    Partitioned,
    /// One array of m bits shared by all k probes.
    Standard,
}

impl Layout {
    pub fn name(self) -> &'static str {
        match self {
            Layout::Partitioned => "partitioned",
            Layout::Standard => "standard",
        }
    }
}

impl std::fmt::Display for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Layout {
    type Err = TheoryError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "partitioned" => Ok(Layout::Partitioned),
            "standard" => Ok(Layout::Standard),
            other => Err(TheoryError::OutOfRange {
                parameter: "layout",
                value: other.to_string(),
                allowed: "partitioned, standard".into(),
            }),
        }
    }
}

/// The exact rate of `layout` (for the partitioned layout k must divide m).
pub fn exact_rate(layout: Layout, m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    match layout {
        Layout::Partitioned => partitioned_exact(m, n, k),
        Layout::Standard => standard_exact(m, n, k),
    }
}

/// The conventional k: the integer nearest (m/n) ln 2 (at least 1), the
/// minimiser of the asymptotic form (1 - e^(-kn/m))^k over real k. For n = 0 it is 1.
pub fn conventional_k(m: u64, n: u64) -> Result<u32, TheoryError> {
    check_m_k(m, 1)?;
    if n == 0 {
        return Ok(1);
    }
    let x = (m as f64 / n as f64) * std::f64::consts::LN_2;
    Ok((x.round().min(FAST_MAX_K as f64) as u32).max(1))
}

/// The k in 1..=k_max that minimises the exact rate of `layout` (the smaller k
/// on a tie), with that rate. For the partitioned layout only divisors of m
/// are candidates. None if no candidate exists.
pub fn exact_optimal_k(
    layout: Layout,
    m: u64,
    n: u64,
    k_max: u32,
) -> Result<Option<(u32, f64)>, TheoryError> {
    check_m_k(m, 1)?;
    let k_max = k_max.min(FAST_MAX_K);
    let mut best: Option<(u32, f64)> = None;
    for k in 1..=k_max {
        if layout == Layout::Partitioned && !m.is_multiple_of(k as u64) {
            continue;
        }
        if layout == Layout::Standard && k as u64 > m {
            break;
        }
        let r = exact_rate(layout, m, n, k)?;
        if best.is_none_or(|(_, b)| r < b) {
            best = Some((k, r));
        }
    }
    Ok(best)
}
