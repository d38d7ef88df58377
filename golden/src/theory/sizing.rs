//! Sizing: the smallest filter (m and its k) whose exact false-positive rate
//! meets a target for n items, per layout, optionally on a named FPGA.
//!
//! The partitioned layout is the hardware's: m = k * 2^b with k in 1..=16 and
//! b in 6..=16 (docs/contract.md §1) because each partition is its own bank,
//! addressed by a b-bit hash output, and a bank's depth is a power of two.
//! On a device every bank is a separate memory (all k banks are read in the
//! same cycle, so banks cannot share a block RAM port), so a bank occupies
//! ceil(2^b / block_bits) whole block RAMs; the bits of a partly used block are
//! free, so with a device the bank is grown to fill its blocks.

use super::optimal::{exact_optimal_k, Layout};
use super::{partitioned_exact, TheoryError, FAST_MAX_M};

/// Hardware limits from docs/contract.md §1.
pub const HW_K_MAX: u32 = *bloom_params::K_RANGE.end();
pub const HW_BANK_BITS: std::ops::RangeInclusive<u32> = bloom_params::BANK_BITS_RANGE;
/// Largest k the standard-layout sizing considers (the golden model's standard filter allows 1..=16).
pub const STANDARD_K_MAX: u32 = 16;

/// A device's block RAMs, as the caller knows them (the FPGA flow's device
/// table has every part the project builds for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockRams {
    /// The device's name, for reports.
    pub name: String,
    pub description: String,
    /// Bits in one block RAM.
    pub block_bits: u64,
    /// Block RAMs on the device.
    pub blocks: u64,
}

/// Block RAM use of a design on a device.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub device: BlockRams,
    pub blocks_used: u64,
    pub fits: bool,
}

/// A sizing recommendation.
#[derive(Clone, Debug, PartialEq)]
pub struct Recommendation {
    pub layout: Layout,
    pub n: u64,
    pub target: f64,
    /// Total bits.
    pub m: u64,
    pub k: u32,
    /// log2 of the bank size (partitioned layout only).
    pub bank_bits: Option<u32>,
    /// Exact false-positive rate of this configuration.
    pub rate: f64,
    /// The classic formula's prediction for it (CRJ Eq. 1), for comparison.
    pub classic: f64,
    pub placement: Option<Placement>,
}

fn check_target(n: u64, p: f64) -> Result<(), TheoryError> {
    if n == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "n",
            value: "0".into(),
            allowed: ">= 1 item".into(),
        });
    }
    if !(p > 0.0 && p < 1.0) {
        return Err(TheoryError::OutOfRange {
            parameter: "p",
            value: p.to_string(),
            allowed: "0 < p < 1".into(),
        });
    }
    Ok(())
}

fn blocks_for(bits: u64, dev: &BlockRams) -> u64 {
    bits.div_ceil(dev.block_bits)
}

/// Smallest configuration meeting rate <= p for n items.
///
/// Partitioned: over k in 1..=16 and b in 6..=16, the fewest bits (with a
/// device: the fewest block RAMs, each bank grown to fill its blocks), then
/// the fewest banks. Standard: the smallest m (any integer; with a device,
/// rounded up to whole block RAMs) whose best k in 1..=16 meets p.
pub fn recommend(
    layout: Layout,
    n: u64,
    p: f64,
    dev: Option<BlockRams>,
) -> Result<Recommendation, TheoryError> {
    check_target(n, p)?;
    match layout {
        Layout::Partitioned => recommend_partitioned(n, p, dev),
        Layout::Standard => recommend_standard(n, p, dev),
    }
}

fn recommend_partitioned(
    n: u64,
    p: f64,
    dev: Option<BlockRams>,
) -> Result<Recommendation, TheoryError> {
    // (cost, k, b) of the best candidate so far; cost is bits or blocks.
    let mut best: Option<(u64, u32, u32, f64)> = None;
    let mut best_rate_seen = f64::INFINITY;
    for k in 1..=HW_K_MAX {
        for b in HW_BANK_BITS {
            let bank = 1u64 << b;
            // With a device, a bank that does not fill its last block is grown to do so.
            let (b_eff, cost) = match &dev {
                None => (b, k as u64 * bank),
                Some(d) => {
                    let per_bank = blocks_for(bank, d);
                    let grown = (per_bank * d.block_bits).min(1 << HW_BANK_BITS.end());
                    let b_grown = 63 - grown.leading_zeros();
                    (b_grown.max(b), k as u64 * per_bank)
                }
            };
            let m = k as u64 * (1u64 << b_eff);
            let rate = partitioned_exact(m, n, k)?;
            best_rate_seen = best_rate_seen.min(rate);
            if rate <= p {
                let better = match best {
                    None => true,
                    Some((c, bk, _, _)) => cost < c || (cost == c && k < bk),
                };
                if better {
                    best = Some((cost, k, b_eff, rate));
                }
                break; // larger b only costs more for this k
            }
        }
    }
    let (_, k, b, rate) = best.ok_or_else(|| {
        TheoryError::Unreachable(format!(
            "no partitioned configuration (k <= {HW_K_MAX}, banks of 2^6..2^16 bits) reaches p = {p:e} for n = {n}: \
             the best is {best_rate_seen:.3e}; use fewer items per filter or several filters"
        ))
    })?;
    let m = k as u64 * (1u64 << b);
    let placement = dev.map(|d| {
        let used = k as u64 * blocks_for(1 << b, &d);
        Placement {
            fits: used <= d.blocks,
            device: d,
            blocks_used: used,
        }
    });
    Ok(Recommendation {
        layout: Layout::Partitioned,
        n,
        target: p,
        m,
        k,
        bank_bits: Some(b),
        rate,
        classic: super::classic(m, n, k)?,
        placement,
    })
}

fn best_standard(m: u64, n: u64) -> Result<(u32, f64), TheoryError> {
    Ok(exact_optimal_k(Layout::Standard, m, n, STANDARD_K_MAX)?.expect("m >= 1 has k = 1"))
}

fn recommend_standard(
    n: u64,
    p: f64,
    dev: Option<BlockRams>,
) -> Result<Recommendation, TheoryError> {
    // The exact rate at the best k decreases as m grows, so bisect on m.
    let meets = |m: u64| -> Result<bool, TheoryError> { Ok(best_standard(m, n)?.1 <= p) };
    let mut hi = ((-(n as f64) * p.ln() / (std::f64::consts::LN_2.powi(2))).ceil() as u64).max(1);
    while !meets(hi)? {
        if hi >= FAST_MAX_M / 2 {
            return Err(TheoryError::Unreachable(format!(
                "a standard filter for n = {n} at p = {p:e} needs more than 2^49 bits"
            )));
        }
        hi *= 2;
    }
    let mut lo = 0u64; // never meets (m = 0 is no filter)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if meets(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let mut m = hi;
    let placement = dev.map(|d| {
        let used = blocks_for(m, &d);
        m = used * d.block_bits;
        Placement {
            fits: used <= d.blocks,
            device: d,
            blocks_used: used,
        }
    });
    let (k, rate) = best_standard(m, n)?;
    Ok(Recommendation {
        layout: Layout::Standard,
        n,
        target: p,
        m,
        k,
        bank_bits: None,
        rate,
        classic: super::classic(m, n, k)?,
        placement,
    })
}

/// Exact rate of the standard layout at the best k in 1..=16 (used by sizing).
pub fn standard_best(m: u64, n: u64) -> Result<(u32, f64), TheoryError> {
    best_standard(m, n)
}
