//! Empirical false-positive rate of the Verilated core.
//!
//! After n inserts of random keys, fresh random keys (never inserted) are
//! queried through the core; the fraction that hit is compared with the exact
//! partitioned formula (1 - (1 - 2^-b)^n)^k.
//!
//! The uncertainty has two parts, both computed exactly for ideal hashing:
//! the binomial error of q queries, and the spread of the filter itself (the
//! fill X_p of each bank after n inserts is random; the rate given the fill is
//! prod X_p / m). With F = prod_p X_p/m, banks independent,
//!
//! ```text
//!   E[F] = prod E[X_p]/m = (1-(1-1/m)^n)^k,
//!   Var F = prod E[(X_p/m)^2] - E[F]^2,
//!   Var(measured) = (E[F] - E[F]^2 - Var F)/q + Var F,
//! with E[X] = m(1-(1-1/m)^n) and
//! E[X^2] = m(m-1)(1-2/m)^n + m(1-1/m)^n - m^2 (1-1/m)^{2n} + E[X]^2.
//! ```

use std::collections::HashSet;

use crate::cosim::CoSim;
use crate::traffic::{ReadyPattern, Request, Rng};
use crate::SimError;

/// (1 - (1 - 2^-b)^n)^k.
pub fn exact_partitioned_fpr(k: u32, bank_bits: u32, n: u64) -> f64 {
    let m = (1u64 << bank_bits) as f64;
    let empty = ((n as f64) * (-1.0 / m).ln_1p()).exp();
    (1.0 - empty).powi(k as i32)
}

/// Variance of the filter's own false-positive probability F = prod X_p/m
/// over the randomness of n random inserts.
pub fn fpr_state_variance(k: u32, bank_bits: u32, n: u64) -> f64 {
    let m = (1u64 << bank_bits) as f64;
    let n = n as f64;
    let p1 = (n * (-1.0 / m).ln_1p()).exp(); // (1-1/m)^n
    let p2 = (n * (-2.0 / m).ln_1p()).exp(); // (1-2/m)^n
    let ex = m * (1.0 - p1);
    let var_x = (m * (m - 1.0) * p2 + m * p1 - m * m * p1 * p1).max(0.0);
    let ey = ex / m;
    let ey2 = (var_x + ex * ex) / (m * m);
    (ey2.powi(k as i32) - ey.powi(2 * k as i32)).max(0.0)
}

#[derive(Clone, Debug)]
pub struct FprMeasurement {
    pub k: u32,
    pub bank_bits: u32,
    pub inserted: u64,
    pub queries: u64,
    pub false_positives: u64,
    pub measured: f64,
    pub exact: f64,
    /// Standard error of the measured rate around the exact value (binomial and
    /// filter-state parts combined).
    pub std_error: f64,
    /// Binomial part alone.
    pub binomial_std_error: f64,
    /// The filter's own rate given its fills, prod X_p/m (from the golden model).
    pub conditional: f64,
}

impl FprMeasurement {
    /// (measured - exact) / std_error.
    pub fn z(&self) -> f64 {
        (self.measured - self.exact) / self.std_error.max(f64::MIN_POSITIVE)
    }
    /// 95% interval for the measured rate under the exact formula.
    pub fn interval95(&self) -> (f64, f64) {
        (
            self.exact - 1.96 * self.std_error,
            self.exact + 1.96 * self.std_error,
        )
    }
}

/// Clears the filter, inserts `n` random keys, then queries `queries` fresh
/// random keys, all through the core (checked against the golden model as
/// usual). Counts the core's hits among the fresh queries.
pub fn measure_fpr(
    cosim: &mut CoSim,
    n: u64,
    queries: u64,
    seed: u64,
) -> Result<FprMeasurement, SimError> {
    let spec = cosim.core.config.params;
    let w = spec.key_bits;
    let mut rng = Rng::new(seed);
    let mut consumer = ReadyPattern::default();
    let mut inserted = HashSet::with_capacity(n as usize);
    let batch = 1 << 14;
    cosim.run_requests(
        &[Request {
            op: 2,
            key: 0,
            tag: 0,
        }],
        &[0],
        &mut consumer,
    )?;
    let mut tag = 0u8;
    let mut left = n;
    while left > 0 {
        let m = left.min(batch);
        let reqs: Vec<Request> = (0..m)
            .map(|_| {
                let key = rng.key(w);
                inserted.insert(key);
                tag = tag.wrapping_add(1);
                Request { op: 1, key, tag }
            })
            .collect();
        cosim.run_requests(&reqs, &vec![0; reqs.len()], &mut consumer)?;
        left -= m;
    }
    cosim.drain(&mut consumer)?;
    let conditional = {
        let size = (1u64 << spec.bank_bits) as f64;
        cosim
            .golden()
            .fill()
            .iter()
            .map(|&x| x as f64 / size)
            .product::<f64>()
    };
    let (q0, h0) = (cosim.checker.queries, cosim.checker.query_hits);
    let mut left = queries;
    while left > 0 {
        let m = left.min(batch);
        let reqs: Vec<Request> = (0..m)
            .map(|_| {
                let mut key = rng.key(w);
                while inserted.contains(&key) {
                    key = rng.key(w);
                }
                tag = tag.wrapping_add(1);
                Request { op: 0, key, tag }
            })
            .collect();
        cosim.run_requests(&reqs, &vec![0; reqs.len()], &mut consumer)?;
        left -= m;
    }
    cosim.drain(&mut consumer)?;
    let q = cosim.checker.queries - q0;
    let fp = cosim.checker.query_hits - h0;
    let exact = exact_partitioned_fpr(spec.k, spec.bank_bits, n);
    let var_state = fpr_state_variance(spec.k, spec.bank_bits, n);
    let qf = q.max(1) as f64;
    let binom = (exact * (1.0 - exact) / qf).sqrt();
    let total = ((exact - exact * exact - var_state).max(0.0) / qf + var_state).sqrt();
    Ok(FprMeasurement {
        k: spec.k,
        bank_bits: spec.bank_bits,
        inserted: n,
        queries: q,
        false_positives: fp,
        measured: fp as f64 / qf,
        exact,
        std_error: total,
        binomial_std_error: binom,
        conditional,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_limits_and_a_known_point() {
        assert_eq!(exact_partitioned_fpr(4, 12, 0), 0.0);
        // One insert into 64-bit banks, k=1: exactly 1/64.
        assert!((exact_partitioned_fpr(1, 6, 1) - 1.0 / 64.0).abs() < 1e-15);
        let p = exact_partitioned_fpr(4, 12, 1000);
        let direct = (1.0 - (1.0 - 1.0 / 4096.0f64).powi(1000)).powi(4);
        assert!((p - direct).abs() < 1e-12, "{p} {direct}");
    }

    #[test]
    fn state_variance_matches_a_monte_carlo_of_random_fills() {
        let (k, b, n) = (2u32, 6u32, 40u64);
        let m = 1usize << b;
        let mut rng = Rng::new(3);
        let trials = 200_000;
        let (mut s, mut s2) = (0.0, 0.0);
        for _ in 0..trials {
            let mut f = 1.0;
            for _ in 0..k {
                let mut bits = vec![false; m];
                for _ in 0..n {
                    bits[rng.below(m as u64) as usize] = true;
                }
                f *= bits.iter().filter(|&&x| x).count() as f64 / m as f64;
            }
            s += f;
            s2 += f * f;
        }
        let mean = s / trials as f64;
        let var = s2 / trials as f64 - mean * mean;
        assert!(
            (mean - exact_partitioned_fpr(k, b, n)).abs() < 0.002,
            "{mean}"
        );
        let v = fpr_state_variance(k, b, n);
        assert!((var - v).abs() < 0.05 * v, "{var} vs {v}");
    }
}
