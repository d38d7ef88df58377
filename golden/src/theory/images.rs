//! Estimates read from filter images of the partitioned layout (contract §6,
//! docs/theory.md "Images: items, design fill, intersections"): the number of
//! items, the design load, and the size of the intersection of the key sets
//! behind two images (survey §2.4, per partition), each with its standard
//! error.
//!
//! A partition is a one-hash filter of m_p = 2^b bits. After n distinct keys,
//! each of its bits is still 0 with probability q^n, q = 1 - 1/m_p, so its zero
//! count Z concentrates at m_p q^n and n is estimated as ln(Z/m_p) / ln q
//! (Swamidass and Baldi). The k partitions hash independently, so their
//! estimates are averaged and their variances divide by k.
//!
//! Standard errors are first order (delta method) in the zero fractions, with
//! the bits of a partition treated as independent given Poisson key counts and
//! the variance that Poisson counts add removed again (the key sets are fixed):
//! for one set this gives the known m_p (e^rho - 1 - rho), rho = n / m_p.

use super::TheoryError;

fn out_of_range(parameter: &'static str, value: String, allowed: String) -> TheoryError {
    TheoryError::OutOfRange {
        parameter,
        value,
        allowed,
    }
}

fn check_bank(bank_size: u64) -> Result<f64, TheoryError> {
    if bank_size < 2 {
        return Err(out_of_range(
            "bank size",
            bank_size.to_string(),
            ">= 2 bits".into(),
        ));
    }
    Ok(bank_size as f64)
}

fn check_fills(bank_size: u64, fills: &[u64], what: &'static str) -> Result<(), TheoryError> {
    if fills.is_empty() {
        return Err(out_of_range(
            what,
            "no banks".into(),
            "at least one bank".into(),
        ));
    }
    if let Some(&x) = fills.iter().find(|&&x| x > bank_size) {
        return Err(out_of_range(
            what,
            x.to_string(),
            format!("0..={bank_size} set bits per bank"),
        ));
    }
    Ok(())
}

/// ln q = ln(1 - 1/m_p).
fn ln_q(m: f64) -> f64 {
    (-1.0 / m).ln_1p()
}

/// Items of one partition with `ones` of its `m` bits set; infinite when full.
fn bank_items(m: f64, ones: u64) -> f64 {
    let zeros = m - ones as f64;
    if zeros <= 0.0 {
        f64::INFINITY
    } else {
        (zeros / m).ln() / ln_q(m)
    }
}

/// An estimated number of items and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The estimate (infinite when a bank is full).
    pub items: f64,
    /// Its standard error (infinite when the estimate is).
    pub std_error: f64,
}

/// Items held by a partitioned filter whose banks of `bank_size` bits have
/// `fills` bits set: the mean of the per-partition estimates (contract §6).
pub fn estimate_items(bank_size: u64, fills: &[u64]) -> Result<Estimate, TheoryError> {
    let m = check_bank(bank_size)?;
    check_fills(bank_size, fills, "fill")?;
    let k = fills.len() as f64;
    let mut items = 0.0;
    let mut variance = 0.0;
    for &x in fills {
        let n = bank_items(m, x);
        let z = 1.0 - x as f64 / m;
        items += n;
        variance += m * (1.0 / z - 1.0) - n;
    }
    let items = items / k;
    let std_error = if items.is_finite() {
        (variance.max(0.0) / k / k).sqrt()
    } else {
        f64::INFINITY
    };
    Ok(Estimate { items, std_error })
}

/// The expected fill of a bank of `bank_size` bits holding `items` distinct
/// keys, and its standard deviation, for random hashing: the exact first two
/// moments of the occupancy count (`items` may be fractional, as an estimate is).
pub fn fill_moments(bank_size: u64, items: f64) -> (f64, f64) {
    let m = bank_size as f64;
    let q1 = (1.0 - 1.0 / m).powf(items);
    let q2 = (1.0 - 2.0 / m).powf(items);
    let zeros_mean = m * q1;
    let zeros_var = m * (m - 1.0) * q2 + m * q1 - m * m * q1 * q1;
    (m - zeros_mean, zeros_var.max(0.0).sqrt())
}

/// How far each bank's fill lies from the fill expected for the items the
/// banks together estimate, in standard deviations (signed; random hashing
/// puts every one within a few). None when nothing can be said: one bank
/// (its fill is the estimate), a full bank, or an empty filter. A bank far
/// out is the sign of structured keys meeting a linear hash (docs/theory.md,
/// "Structured key sets").
pub fn fill_departures(bank_size: u64, fills: &[u64]) -> Result<Option<Vec<f64>>, TheoryError> {
    let estimate = estimate_items(bank_size, fills)?;
    if fills.len() < 2 || !estimate.items.is_finite() || estimate.items < 1.0 {
        return Ok(None);
    }
    let (mean, sd) = fill_moments(bank_size, estimate.items);
    if sd <= 0.0 {
        return Ok(None);
    }
    Ok(Some(
        fills.iter().map(|&x| (x as f64 - mean) / sd).collect(),
    ))
}

/// The design load of a partitioned filter with banks of `bank_size` bits:
/// the number of keys at which each bank is expected to be exactly half full,
/// ln(1/2) / ln(1 - 1/m_p), about 0.693 m_p (contract §6). At it the
/// false-positive rate is 2^-k, and k is the optimal number of hashes for the
/// filter's k m_p bits; past it, fewer hashes would do better.
pub fn design_items(bank_size: u64) -> Result<f64, TheoryError> {
    let m = check_bank(bank_size)?;
    Ok(0.5f64.ln() / ln_q(m))
}

/// The estimated size of the intersection of two key sets, from their images.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntersectionEstimate {
    /// The estimate, clamped into [0, min(|S_A|, |S_B|)] (sizes as estimated
    /// or given).
    pub items: f64,
    /// The mean of the per-partition estimates before clamping; unbiased to
    /// first order, so it is the figure to average over many pairs.
    pub raw: f64,
    /// Standard error of `raw` (first order).
    pub std_error: f64,
}

/// |S_A ∩ S_B| from the fills of images A, B and of their union A OR B (all of
/// one configuration, banks of `bank_size` bits): per partition
/// n(A) + n(B) - n(A OR B), averaged (the survey's §2.4 estimate with the
/// sizes estimated from the zeros). `None` when a bank of A OR B is full (then
/// nothing can be said).
pub fn estimate_intersection(
    bank_size: u64,
    fills_a: &[u64],
    fills_b: &[u64],
    fills_or: &[u64],
) -> Result<Option<IntersectionEstimate>, TheoryError> {
    let m = check_bank(bank_size)?;
    check_fills(bank_size, fills_a, "fill of A")?;
    check_fills(bank_size, fills_b, "fill of B")?;
    check_fills(bank_size, fills_or, "fill of A OR B")?;
    if fills_a.len() != fills_b.len() || fills_a.len() != fills_or.len() {
        return Err(out_of_range(
            "banks",
            format!("{}/{}/{}", fills_a.len(), fills_b.len(), fills_or.len()),
            "the same number of banks in A, B and A OR B".into(),
        ));
    }
    for p in 0..fills_a.len() {
        let (a, b, u) = (fills_a[p], fills_b[p], fills_or[p]);
        if u < a.max(b) || u > a + b {
            return Err(out_of_range(
                "fill of A OR B",
                format!("{u} in bank {p}"),
                format!("{}..={} (from A's {a} and B's {b})", a.max(b), a + b),
            ));
        }
    }
    if fills_or.contains(&bank_size) {
        return Ok(None);
    }
    let k = fills_a.len() as f64;
    let (mut raw, mut variance) = (0.0, 0.0);
    for p in 0..fills_a.len() {
        let n_cap =
            bank_items(m, fills_a[p]) + bank_items(m, fills_b[p]) - bank_items(m, fills_or[p]);
        let z1 = 1.0 - fills_a[p] as f64 / m;
        let z2 = 1.0 - fills_b[p] as f64 / m;
        let zu = 1.0 - fills_or[p] as f64 / m;
        raw += n_cap;
        variance +=
            m * (1.0 / zu + 2.0 * zu / (z1 * z2) - 1.0 / z1 - 1.0 / z2 - 1.0) - n_cap.max(0.0);
    }
    let raw = raw / k;
    let upper = estimate_items(bank_size, fills_a)?
        .items
        .min(estimate_items(bank_size, fills_b)?.items);
    Ok(Some(IntersectionEstimate {
        items: raw.clamp(0.0, upper.max(0.0)),
        raw,
        std_error: (variance.max(0.0) / k / k).sqrt(),
    }))
}

/// Exact sizes of the key sets behind two images, as given by a user, with what
/// checks them: the key width (the key space is 2^key_bits) and each image's fills.
#[derive(Clone, Copy, Debug)]
pub struct GivenSizes<'a> {
    pub key_bits: u32,
    pub size_a: u64,
    pub fills_a: &'a [u64],
    pub size_b: u64,
    pub fills_b: &'a [u64],
}

/// Markov's bound below which a size is refused for the zeros its image still has.
pub const IMPLAUSIBLE: f64 = 1e-9;

/// Err unless `size` keys could have left `fills` (contract §6): at least the
/// largest fill, at most 2^key_bits, and not so many that a bank with zeros left
/// would have them with probability below [`IMPLAUSIBLE`].
fn check_size(
    bank_size: u64,
    key_bits: u32,
    size: u64,
    fills: &[u64],
    what: &'static str,
) -> Result<(), TheoryError> {
    let m = bank_size as f64;
    let largest = fills.iter().copied().max().unwrap_or(0);
    if size < largest {
        return Err(out_of_range(
            what,
            size.to_string(),
            format!(
                "at least {largest}: its image has {largest} bits set in one bank, and each key sets one bit per bank"
            ),
        ));
    }
    if key_bits < 64 && size > 1u64 << key_bits {
        return Err(out_of_range(
            what,
            size.to_string(),
            format!(
                "at most 2^{key_bits} = {}, the number of {key_bits}-bit keys",
                1u64 << key_bits
            ),
        ));
    }
    let expected_zeros = m * (size as f64 * ln_q(m)).exp();
    if let Some((p, &x)) = fills
        .iter()
        .enumerate()
        .find(|(_, &x)| x < bank_size && expected_zeros / ((bank_size - x) as f64) < IMPLAUSIBLE)
    {
        return Err(out_of_range(
            what,
            size.to_string(),
            format!(
                "a size its image can have: after {size} keys bank {p} would keep its {} zero bits with probability below {IMPLAUSIBLE:e} (expected zeros {expected_zeros:.3e})",
                bank_size - x
            ),
        ));
    }
    Ok(())
}

/// |S_A ∩ S_B| when |S_A| and |S_B| are known exactly (contract §6): the survey's
/// §2.4 equation solved per partition from the 1 bits Y_p of A AND B,
/// d_p = |S_A| + |S_B| - ln(Y_p/m_p - 1 + q^|S_A| + q^|S_B|) / ln q (0 where the
/// logarithm's argument is not positive), averaged. Sizes that cannot be true of
/// their images are refused; `None` when a bank of A AND B is full.
pub fn estimate_intersection_given_sizes(
    bank_size: u64,
    sizes: GivenSizes,
    fills_and: &[u64],
) -> Result<Option<IntersectionEstimate>, TheoryError> {
    let m = check_bank(bank_size)?;
    check_fills(bank_size, fills_and, "fill of A AND B")?;
    check_fills(bank_size, sizes.fills_a, "fill of A")?;
    check_fills(bank_size, sizes.fills_b, "fill of B")?;
    let banks = fills_and.len();
    if sizes.fills_a.len() != banks || sizes.fills_b.len() != banks {
        return Err(out_of_range(
            "banks",
            format!("{}/{}/{banks}", sizes.fills_a.len(), sizes.fills_b.len()),
            "the same number of banks in A, B and A AND B".into(),
        ));
    }
    for (p, &y) in fills_and.iter().enumerate() {
        let (a, b) = (sizes.fills_a[p], sizes.fills_b[p]);
        if y > a.min(b) {
            return Err(out_of_range(
                "fill of A AND B",
                format!("{y} in bank {p}"),
                format!("0..={} (from A's {a} and B's {b})", a.min(b)),
            ));
        }
    }
    check_size(
        bank_size,
        sizes.key_bits,
        sizes.size_a,
        sizes.fills_a,
        "size of A",
    )?;
    check_size(
        bank_size,
        sizes.key_bits,
        sizes.size_b,
        sizes.fills_b,
        "size of B",
    )?;
    if fills_and.contains(&bank_size) {
        return Ok(None);
    }
    let k = banks as f64;
    let lq = ln_q(m);
    let (na, nb) = (sizes.size_a as f64, sizes.size_b as f64);
    let (z1, z2) = ((na * lq).exp(), (nb * lq).exp());
    let (mut raw, mut variance) = (0.0, 0.0);
    for &y in fills_and {
        let w = y as f64 / m - 1.0 + z1 + z2;
        let d = if w > 0.0 { na + nb - w.ln() / lq } else { 0.0 };
        raw += d;
        let n = d.clamp(0.0, na.min(nb));
        let w = if w > 0.0 { w } else { ((na + nb) * lq).exp() };
        let p_and = 1.0 - z1 - z2 + w;
        let explained =
            (z1 - w).powi(2) * (na - n) + (z2 - w).powi(2) * (nb - n) + (z1 + z2 - w).powi(2) * n;
        variance += (m * p_and * (1.0 - p_and) - explained) / (w * w);
    }
    let raw = raw / k;
    Ok(Some(IntersectionEstimate {
        items: raw.clamp(0.0, na.min(nb)),
        raw,
        std_error: (variance.max(0.0) / k / k).sqrt(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_invert_the_expected_fill_and_grow_with_the_load() {
        let m = 4096u64;
        let q = 1.0 - 1.0 / m as f64;
        for n in [0u64, 1, 100, 2839, 10_000] {
            let ones = (m as f64 * (1.0 - q.powi(n as i32))).round() as u64;
            let est = estimate_items(m, &[ones; 4]).unwrap();
            assert!(
                (est.items - n as f64).abs() <= 1.0 + n as f64 * 1e-3,
                "{n}: {est:?}"
            );
        }
        assert_eq!(
            estimate_items(m, &[0; 4]).unwrap(),
            Estimate {
                items: 0.0,
                std_error: 0.0
            }
        );
        assert!(estimate_items(m, &[4096, 0]).unwrap().items.is_infinite());
        assert!(estimate_items(m, &[4097]).is_err());
        assert!(estimate_items(m, &[]).is_err());
        // Linear counting's variance m (e^rho - 1 - rho) / k at rho = 1/2.
        let rho = 0.5f64;
        let ones = (m as f64 * (1.0 - (-rho).exp())).round() as u64;
        let se = estimate_items(m, &[ones; 4]).unwrap().std_error;
        let want = (m as f64 * (rho.exp() - 1.0 - rho) / 4.0).sqrt();
        assert!((se / want - 1.0).abs() < 0.01, "{se} vs {want}");
    }

    #[test]
    fn design_items_half_fill_each_bank() {
        let n = design_items(4096).unwrap();
        assert!((n - 4096.0 * std::f64::consts::LN_2).abs() < 1.0, "{n}");
        let q = 1.0 - 1.0 / 4096.0f64;
        assert!((q.powf(n) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn intersection_refuses_inconsistent_fills_and_says_nothing_when_full() {
        assert!(estimate_intersection(64, &[10], &[10], &[9]).is_err());
        assert!(estimate_intersection(64, &[10], &[10], &[21]).is_err());
        assert!(estimate_intersection(64, &[10, 1], &[10], &[12]).is_err());
        assert_eq!(
            estimate_intersection(64, &[40], &[40], &[64]).unwrap(),
            None
        );
        let same = estimate_intersection(64, &[10], &[10], &[10])
            .unwrap()
            .unwrap();
        assert!(
            (same.items - bank_items(64.0, 10)).abs() < 1e-9,
            "identical images: {same:?}"
        );
    }

    fn sizes<'a>(a: u64, fa: &'a [u64], b: u64, fb: &'a [u64]) -> GivenSizes<'a> {
        GivenSizes {
            key_bits: 32,
            size_a: a,
            fills_a: fa,
            size_b: b,
            fills_b: fb,
        }
    }

    #[test]
    fn given_sizes_that_cannot_be_true_are_refused() {
        let m = 4096;
        let fa = [100, 98];
        let fb = [50, 51];
        let and = [10, 9];
        let refused = |s: GivenSizes| {
            estimate_intersection_given_sizes(m, s, &and)
                .unwrap_err()
                .to_string()
        };
        // Below the largest fill: 0 keys cannot set 100 bits.
        let e = refused(sizes(0, &fa, 0, &fb));
        assert!(e.contains("size of A") && e.contains("at least 100"), "{e}");
        let e = refused(sizes(100, &fa, 50, &fb));
        assert!(e.contains("size of B") && e.contains("at least 51"), "{e}");
        // Above the key space of 32-bit keys.
        let e = refused(sizes(u64::MAX, &fa, 60, &fb));
        assert!(e.contains("2^32"), "{e}");
        // A bank with zeros left after far more keys than could leave them.
        let e = refused(sizes(1 << 31, &fa, 60, &fb));
        assert!(e.contains("zero bits with probability below"), "{e}");
        // An AND fill above either image's.
        assert!(estimate_intersection_given_sizes(m, sizes(100, &fa, 60, &fb), &[51, 0]).is_err());
        // Plausible sizes give an estimate.
        let est = estimate_intersection_given_sizes(m, sizes(100, &fa, 60, &fb), &and)
            .unwrap()
            .unwrap();
        assert!(
            est.items >= 0.0 && est.items <= 60.0 && est.std_error > 0.0,
            "{est:?}"
        );
    }

    #[test]
    fn given_sizes_full_and_bank_is_unknown_and_a_non_positive_argument_zeroes_its_partition() {
        // A full bank of A AND B says nothing (as a full bank of A OR B does for fills).
        let full = [64, 40];
        let s = sizes(200, &full, 200, &full);
        assert_eq!(
            estimate_intersection_given_sizes(64, s, &[64, 30]).unwrap(),
            None
        );
        // Disjoint-looking partition 0 (Y = 0 where even disjoint sets leave more)
        // is zeroed alone: the mean is partition 1's d over 2.
        let (fa, fb) = ([40, 40], [40, 40]);
        let s = sizes(60, &fa, 60, &fb);
        let one = estimate_intersection_given_sizes(64, s, &[0, 30])
            .unwrap()
            .unwrap();
        let q = 1.0 - 1.0 / 64.0f64;
        let (z1, z2) = (q.powi(60), q.powi(60));
        assert!(30.0 / 64.0 - 1.0 + z1 + z2 > 0.0 && z1 + z2 - 1.0 <= 0.0);
        let d1 = 120.0 - (30.0 / 64.0 - 1.0 + z1 + z2).ln() / q.ln();
        assert!((one.raw - d1 / 2.0).abs() < 1e-9, "{one:?} vs {}", d1 / 2.0);
        assert!(one.std_error.is_finite() && one.std_error > 0.0, "{one:?}");
    }
}
