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
    /// first order, so it is the figure to average over many pairs. Minus
    /// infinity when a partition's logarithm argument is not positive.
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

/// |S_A ∩ S_B| when |S_A| and |S_B| are known exactly: the survey's §2.4
/// equation solved per partition from the 1 bits Y_p of A AND B,
/// n = |S_A| + |S_B| - ln(Y_p/m_p - 1 + q^|S_A| + q^|S_B|) / ln q, averaged.
pub fn estimate_intersection_given_sizes(
    bank_size: u64,
    size_a: u64,
    size_b: u64,
    fills_and: &[u64],
) -> Result<IntersectionEstimate, TheoryError> {
    let m = check_bank(bank_size)?;
    check_fills(bank_size, fills_and, "fill of A AND B")?;
    let k = fills_and.len() as f64;
    let lq = ln_q(m);
    let (na, nb) = (size_a as f64, size_b as f64);
    let (z1, z2) = ((na * lq).exp(), (nb * lq).exp());
    let (mut raw, mut variance) = (0.0, 0.0);
    for &y in fills_and {
        let w = y as f64 / m - 1.0 + z1 + z2;
        if w <= 0.0 {
            raw = f64::NEG_INFINITY;
            continue;
        }
        let n_cap = na + nb - w.ln() / lq;
        raw += n_cap;
        let n = n_cap.clamp(0.0, na.min(nb));
        let p_and = 1.0 - z1 - z2 + w;
        let explained =
            (z1 - w).powi(2) * (na - n) + (z2 - w).powi(2) * (nb - n) + (z1 + z2 - w).powi(2) * n;
        variance += (m * p_and * (1.0 - p_and) - explained) / (w * w);
    }
    let raw = raw / k;
    Ok(IntersectionEstimate {
        items: if raw.is_nan() {
            0.0
        } else {
            raw.clamp(0.0, na.min(nb))
        },
        raw,
        std_error: (variance.max(0.0) / k / k).sqrt(),
    })
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
}
