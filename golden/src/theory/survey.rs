//! Estimates from Broder and Mitzenmacher's survey (file 003), §2.1, §2.4, §2.5,
//! and the per-partition forms used for the partitioned layout.

use super::TheoryError;

fn check_fill(m: u64, set_bits: u64) -> Result<(), TheoryError> {
    if m < 2 {
        return Err(TheoryError::OutOfRange {
            parameter: "m",
            value: m.to_string(),
            allowed: ">= 2".into(),
        });
    }
    if set_bits > m {
        return Err(TheoryError::OutOfRange {
            parameter: "set bits",
            value: set_bits.to_string(),
            allowed: format!("0..={m}"),
        });
    }
    Ok(())
}

/// Estimated number of items in a standard filter of m bits and k probes with
/// `set_bits` bits set (the zero count concentrates at m (1 - 1/m)^(kn), §2.1;
/// Swamidass and Baldi): n = ln(1 - X/m) / (k ln(1 - 1/m)). Infinite when full.
pub fn estimated_items(m: u64, k: u32, set_bits: u64) -> Result<f64, TheoryError> {
    check_fill(m, set_bits)?;
    if k == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "k",
            value: "0".into(),
            allowed: ">= 1".into(),
        });
    }
    if set_bits == m {
        return Ok(f64::INFINITY);
    }
    let x = set_bits as f64 / m as f64;
    Ok((-x).ln_1p() / (k as f64 * (-1.0 / m as f64).ln_1p()))
}

/// Estimated items of a partitioned filter: each bank is a one-probe filter of
/// `bank_bits` bits, so each fill gives an estimate; their mean is returned
/// (docs/contract.md §6). Infinite when a bank is full.
pub fn estimated_items_partitioned(bank_bits: u64, fills: &[u64]) -> Result<f64, TheoryError> {
    if fills.is_empty() {
        return Err(TheoryError::OutOfRange {
            parameter: "banks",
            value: "0".into(),
            allowed: ">= 1".into(),
        });
    }
    let mut sum = 0.0;
    for &x in fills {
        sum += estimated_items(bank_bits, 1, x)?;
    }
    Ok(sum / fills.len() as f64)
}

/// Estimated |S1 ∩ S2| from two standard filters of m bits and k probes built
/// with the same hashes (§2.4): with Z1, Z2 the zero counts of the filters and
/// Z12 the zero count of their bitwise AND,
/// (1/m)(1 - 1/m)^(-k|S1∩S2|) ≈ (Z1 + Z2 - Z12) / (Z1 Z2).
/// (Z1 + Z2 - Z12 is the zero count of the OR.) Clamped at 0 from below.
pub fn estimated_intersection(
    m: u64,
    k: u32,
    zeros1: u64,
    zeros2: u64,
    zeros_and: u64,
) -> Result<f64, TheoryError> {
    check_fill(m, zeros1)?;
    check_fill(m, zeros2)?;
    check_fill(m, zeros_and)?;
    if k == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "k",
            value: "0".into(),
            allowed: ">= 1".into(),
        });
    }
    let zor = zeros1 as i128 + zeros2 as i128 - zeros_and as i128;
    if zeros_and < zeros1.max(zeros2) || zor < 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "zeros of the AND",
            value: zeros_and.to_string(),
            allowed: "at least the zeros of each filter (an AND has every zero of both)".into(),
        });
    }
    if zeros1 == 0 || zeros2 == 0 || zor == 0 {
        return Ok(f64::INFINITY);
    }
    let mf = m as f64;
    let ratio = mf * zor as f64 / (zeros1 as f64 * zeros2 as f64);
    let est = ratio.ln() / (-(k as f64) * (-1.0 / mf).ln_1p());
    Ok(est.max(0.0))
}

/// Bounds on the probability that a counting filter (m counters, n items, k
/// probes) overflows counters of `bits` bits, i.e. some counter reaches 2^bits
/// (§2.5), in the survey's setting: the standard layout (one array of m
/// counters receiving kn increments) and non-saturating counters. For the
/// partitioned layout with saturating counters, where the event is reaching
/// 2^bits - 1, see [`super::counting::counter_overflow`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverflowBounds {
    /// Union bound with the exact binomial tail: m P(c >= j), j = 2^bits.
    pub union_binomial: f64,
    /// m (e n k / (j m))^j.
    pub union_loose: f64,
    /// m (e ln 2 / j)^j, valid when k <= (ln 2) m / n; for 4-bit counters
    /// 1.37e-15 m.
    pub survey: f64,
    /// Whether k <= (ln 2) m / n, the condition of `survey`.
    pub survey_applies: bool,
}

/// See [`OverflowBounds`].
pub fn counter_overflow_bound(
    m: u64,
    n: u64,
    k: u32,
    bits: u32,
) -> Result<OverflowBounds, TheoryError> {
    if m == 0 || k == 0 || !(1..=32).contains(&bits) {
        return Err(TheoryError::OutOfRange {
            parameter: "m, k, bits",
            value: format!("{m}, {k}, {bits}"),
            allowed: "m >= 1, k >= 1, bits in 1..=32".into(),
        });
    }
    let trials = (k as u64)
        .checked_mul(n)
        .ok_or_else(|| TheoryError::OutOfRange {
            parameter: "k*n",
            value: format!("{k}*{n}"),
            allowed: "below 2^64".into(),
        })?;
    let j = 1u64 << bits;
    let mf = m as f64;
    // P(c >= j) for c ~ Binomial(kn, 1/m).
    let tail = super::counting::counter_tail(trials, m, j)?;
    let e = std::f64::consts::E;
    let jf = j as f64;
    Ok(OverflowBounds {
        union_binomial: (mf * tail).min(1.0),
        union_loose: mf * (e * trials as f64 / (jf * mf)).powf(jf),
        survey: mf * super::counting::survey_counter_bound(j),
        survey_applies: n == 0 || (k as f64) <= std::f64::consts::LN_2 * mf / n as f64,
    })
}
