//! The exact false-positive rate of the standard layout (one array of m bits
//! shared by k probes), three ways.
//!
//! With X the number of set bits after N = kn probes, the rate is E[(X/m)^k]
//! (CRJ Eq. 17). The fast method expands x^k in falling factorials,
//! x^k = sum_j S(k,j) (x)_j, and uses E[(X)_j] = (m)_j P_j where P_j is the
//! probability that j given bits are all set:
//!
//! ```text
//! rate = sum_{j=1..k} w_j P_j,   w_j = S(k,j) (m)_j / m^k   (w_j >= 0, sum w_j = 1)
//! ```
//!
//! (w_j is the probability that the query's k probes touch exactly j distinct
//! bits.) P_j by inclusion–exclusion, sum_i (-1)^i C(j,i) (1 - i/m)^N, cancels
//! catastrophically when the filter is sparse, so P_j is computed in one of two
//! ways that both keep 1e-12 relative accuracy:
//!
//! * dense (lambda = N/m >= 4): the inclusion–exclusion sum, compensated.
//!   Its terms add up to about ((1+e^-lambda)/(1-e^-lambda))^j <= 11 times the
//!   result, and the error of each power (1 - i/m)^N is damped by its weight
//!   e^(-lambda i), so about 100 ulps are lost at worst.
//! * sparse (lambda < 4): condition on the number L of the N probes that land
//!   on the j bits (Binomial(N, j/m)); given L, the j bits are all set with
//!   probability C(j, L) = j! S(L,j) / j^L, a table that depends on j and L
//!   only. Every term is positive; the binomial's tail beyond its mode decays
//!   geometrically, so a bounded number of terms (at most a few hundred, since
//!   the mean j*lambda < 256) reaches 1e-17 of the sum.
//!
//! Neither branch has a loop whose length grows with m or n.

use std::sync::OnceLock;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{FromPrimitive, Num, One, Pow, ToPrimitive, Zero};

use super::formulas::too_big;
use super::{check_m_k, TheoryError};

/// Largest k the fast method accepts.
pub const FAST_MAX_K: u32 = 64;
/// Largest m the fast method accepts (its integer arithmetic is exact below
/// 2^53; its accuracy is tested up to 2^40).
pub const FAST_MAX_M: u64 = 1 << 50;

/// Probes-per-bit ratio lambda = N/m at and above which P_j is computed by
/// compensated inclusion–exclusion.
const DENSE_LAMBDA: f64 = 4.0;
/// Columns of the covering table: L ranges over 0..=COVER_MAX_L.
const COVER_MAX_L: usize = 2048;

/// Stirling numbers of the second kind S(k, j) as f64, k, j <= FAST_MAX_K
/// (exact big integers rounded once).
fn stirling_f64() -> &'static Vec<Vec<f64>> {
    static TABLE: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let kmax = FAST_MAX_K as usize;
        let mut exact = vec![vec![BigUint::zero(); kmax + 1]; kmax + 1];
        exact[0][0] = BigUint::one();
        for k in 1..=kmax {
            for j in 1..=k {
                exact[k][j] = &exact[k - 1][j] * BigUint::from(j) + &exact[k - 1][j - 1];
            }
        }
        exact
            .iter()
            .map(|row| {
                row.iter()
                    .map(|s| s.to_f64().unwrap_or(f64::INFINITY))
                    .collect()
            })
            .collect()
    })
}

/// cover[j][L]: probability that L balls thrown uniformly into j bins leave
/// none empty, j <= FAST_MAX_K, L <= COVER_MAX_L. Built by the positive
/// recurrence C(j, L+1) = C(j, L) + C(j-1, L) ((j-1)/j)^L, which follows from
/// S(L+1, j) = j S(L, j) + S(L, j-1).
fn cover_table() -> &'static Vec<Vec<f64>> {
    static TABLE: OnceLock<Vec<Vec<f64>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let jmax = FAST_MAX_K as usize;
        let mut t = vec![vec![0.0f64; COVER_MAX_L + 1]; jmax + 1];
        t[0][0] = 1.0;
        for j in 1..=jmax {
            let r = (j - 1) as f64 / j as f64;
            for l in 0..COVER_MAX_L {
                let step = if l == 0 {
                    t[j - 1][0]
                } else {
                    t[j - 1][l] * r.powi(l as i32)
                };
                t[j][l + 1] = t[j][l] + step;
            }
        }
        t
    })
}

/// w_j = S(k,j) (m)_j / m^k for j = 0..=min(k, m): the distribution of the
/// number of distinct bits among k uniform probes.
pub fn falling_moment_weights(m: u64, k: u32) -> Vec<f64> {
    let s = &stirling_f64()[k as usize];
    let jmax = (k as u64).min(m) as usize;
    let mf = m as f64;
    let mut w = vec![0.0; jmax + 1];
    let mut falling = 1.0; // (m)_j / m^j
    for j in 1..=jmax {
        falling *= (m - (j as u64 - 1)) as f64 / mf;
        let mut v = s[j] * falling;
        let scale = (1.0 / mf).powi((k as usize - j) as i32);
        if scale > 1e-290 {
            v *= scale;
        } else {
            // Step by step, so that a large S(k, j) does not meet an underflowed power.
            for _ in j..k as usize {
                v /= mf;
                if v == 0.0 {
                    break;
                }
            }
        }
        w[j] = v;
    }
    w
}

/// P_j in the sparse regime: sum over L >= j of Binomial(N, j/m)(L) * cover(j, L).
fn covered_sparse(m: u64, nballs: u128, j: usize) -> Option<f64> {
    let cover = cover_table();
    if nballs < j as u128 {
        return Some(0.0);
    }
    if j as u64 == m {
        // Every probe lands on the j bits.
        return cover[j].get(usize::try_from(nballs).ok()?).copied();
    }
    let nf = nballs as f64;
    let jf = j as f64;
    let mf = m as f64;
    let rest = (m - j as u64) as f64;
    // Binomial pmf at L = j.
    let mut pmf = 1.0;
    for t in 0..j {
        pmf *= (nf - t as f64) * jf / ((t as f64 + 1.0) * mf);
    }
    pmf *= ((nf - jf) * (-jf / mf).ln_1p()).exp();
    let mut acc = 0.0;
    let mut l = j;
    loop {
        acc += pmf * cover[j][l];
        if l as u128 == nballs {
            break;
        }
        let ratio = (nf - l as f64) * jf / ((l as f64 + 1.0) * rest);
        pmf *= ratio;
        l += 1;
        // Past the mode the ratios shrink, so once they are below 1/2 the
        // remaining tail is at most the current term.
        if ratio < 0.5 && pmf <= acc * 1e-18 {
            break;
        }
        if l > COVER_MAX_L {
            // Only reachable when the branch is forced far outside its range.
            return None;
        }
    }
    Some(acc)
}

/// Fast exact false-positive rate of the standard layout: CRJ Eq. 17/18/20
/// evaluated through falling-factorial moments (see the module header).
/// Relative accuracy 1e-12 or better for m <= 2^40, k <= 64 and any n, for
/// rates above f64's normal range (smaller rates underflow to 0).
pub fn standard_exact(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    let lambda = k as f64 * n as f64 / m.max(1) as f64;
    standard_exact_branch(m, n, k, lambda >= DENSE_LAMBDA)
}

/// [`standard_exact`] with the branch forced (`dense`: compensated
/// inclusion–exclusion; otherwise the binomial sum). For cross-checks: each
/// branch is accurate only in part of the range.
#[doc(hidden)]
pub fn standard_exact_branch(m: u64, n: u64, k: u32, dense: bool) -> Result<f64, TheoryError> {
    check_m_k(m, k)?;
    if k > FAST_MAX_K {
        return Err(TheoryError::OutOfRange {
            parameter: "k",
            value: k.to_string(),
            allowed: format!("1..={FAST_MAX_K}"),
        });
    }
    if m > FAST_MAX_M {
        return Err(TheoryError::OutOfRange {
            parameter: "m",
            value: m.to_string(),
            allowed: "1..=2^50".into(),
        });
    }
    let nballs = k as u128 * n as u128;
    if nballs == 0 {
        return Ok(0.0);
    }
    let w = falling_moment_weights(m, k);
    let jmax = w.len() - 1;
    let mut rate = 0.0;
    if dense {
        // y_i = (1 - i/m)^N. Its relative error, about (1 + 2 lambda i) 2^-53,
        // is weighted by C(j,i) e^(-lambda i), which keeps the sum's error
        // near 100 ulps at lambda = 4 and smaller beyond.
        let nf = nballs as f64;
        let y: Vec<f64> = (0..=jmax)
            .map(|i| {
                if i as u64 >= m {
                    0.0
                } else {
                    (nf * (-(i as f64) / m as f64).ln_1p()).exp()
                }
            })
            .collect();
        let mut binom = vec![0.0f64; jmax + 1];
        binom[0] = 1.0;
        for (j, &wj) in w.iter().enumerate().take(jmax + 1).skip(1) {
            // Row j of Pascal's triangle, in place.
            for i in (1..=j).rev() {
                binom[i] += binom[i - 1];
            }
            if wj == 0.0 {
                continue;
            }
            // Neumaier-compensated alternating sum.
            let (mut sum, mut comp) = (0.0f64, 0.0f64);
            for i in 0..=j {
                let term = if i % 2 == 0 {
                    binom[i] * y[i]
                } else {
                    -binom[i] * y[i]
                };
                let t = sum + term;
                comp += if sum.abs() >= term.abs() {
                    (sum - t) + term
                } else {
                    (term - t) + sum
                };
                sum = t;
            }
            rate += wj * (sum + comp);
        }
    } else {
        for (j, &wj) in w.iter().enumerate().take(jmax + 1).skip(1) {
            if wj == 0.0 {
                continue;
            }
            let p = covered_sparse(m, nballs, j).ok_or_else(|| TheoryError::OutOfRange {
                parameter: "k*n/m",
                value: format!("{}", nballs as f64 / m as f64),
                allowed: "below ~8 for the binomial-sum branch".into(),
            })?;
            rate += wj * p;
        }
    }
    Ok(rate)
}

/// Work of the table algorithm: about N * min(m, N) steps.
pub fn table_cost(m: u64, n: u64, k: u32) -> u128 {
    let nballs = k as u128 * n as u128;
    nballs * (m as u128).min(nballs)
}

/// CRJ Fig. 1 (the unrolled recursion of Eq. 8), run for K = 1..m, feeding
/// Eq. 17: p_false = sum_i P(kn, m, i) (i/m)^k. Generic so that the same code
/// runs in f64 and in exact rationals.
pub fn standard_exact_table_generic<T>(m: u64, n: u64, k: u32) -> Result<T, TheoryError>
where
    T: Clone + Num + FromPrimitive,
{
    check_m_k(m, k)?;
    let nballs = k as u64 * n;
    if nballs == 0 {
        return Ok(T::zero());
    }
    let big_n = usize::try_from(nballs).map_err(|_| too_big("k*n", nballs))?;
    let conv = |x: u64| T::from_u64(x).expect("integer converts");
    let mm = conv(m);
    let mut table1 = vec![T::zero(); big_n + 1];
    let mut table2 = vec![T::zero(); big_n + 1];
    table1[1] = T::one();
    let mut p_false = T::zero();
    // For K > N, P(N, M, K) = 0: the remaining Eq. 17 terms vanish.
    for i in 1..=m.min(nballs) {
        let hit = conv(i) / mm.clone();
        let miss = conv(m - i + 1) / mm.clone();
        for j in (i as usize).max(2)..=big_n {
            table1[j] = table1[j - 1].clone() * hit.clone() + table2[j - 1].clone() * miss.clone();
        }
        let p = table1[big_n].clone();
        let mut frac_k = T::one();
        for _ in 0..k {
            frac_k = frac_k * hit.clone();
        }
        p_false = p_false + p * frac_k;
        std::mem::swap(&mut table1, &mut table2);
        for v in table1.iter_mut() {
            *v = T::zero();
        }
    }
    Ok(p_false)
}

/// [`standard_exact_table_generic`] in f64, as the paper computes it.
pub fn standard_exact_table(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    standard_exact_table_generic::<f64>(m, n, k)
}

/// Stirling number of the second kind by CRJ Eq. 21 (with the sign
/// (-1)^(i-j), which CRJ note Bose et al. printed wrongly as (-1)^j).
pub fn stirling2(nn: u32, i: u32) -> BigUint {
    let pows: Vec<BigInt> = (0..=i).map(|j| Pow::pow(BigInt::from(j), nn)).collect();
    stirling2_from_powers(i, &pows)
}

fn stirling2_from_powers(i: u32, pows: &[BigInt]) -> BigUint {
    let mut sum = BigInt::zero();
    let mut binom = BigInt::one(); // C(i, j)
    for j in 0..=i {
        let term = &binom * &pows[j as usize];
        if (i - j).is_multiple_of(2) {
            sum += term;
        } else {
            sum -= term;
        }
        binom = binom * BigInt::from(i - j) / BigInt::from(j + 1);
    }
    let fact: BigInt = (1..=i).map(BigInt::from).product();
    (sum / fact)
        .to_biguint()
        .expect("Stirling numbers are non-negative")
}

/// Bose et al.'s form, CRJ Eq. 20 with Eq. 21, in exact rational arithmetic:
/// p_false = m^-(k(n+1)) sum_i i^k i! C(m, i) S(kn, i). For small filters
/// (m <= 1024, kn <= 4096).
pub fn standard_exact_stirling(m: u64, n: u64, k: u32) -> Result<BigRational, TheoryError> {
    check_m_k(m, k)?;
    if m > 1024 {
        return Err(TheoryError::OutOfRange {
            parameter: "m",
            value: m.to_string(),
            allowed: "1..=1024 for the exact Stirling form".into(),
        });
    }
    let nballs = k as u64 * n;
    if nballs > 4096 {
        return Err(TheoryError::OutOfRange {
            parameter: "k*n",
            value: nballs.to_string(),
            allowed: "0..=4096 for the exact Stirling form".into(),
        });
    }
    let nb = nballs as u32;
    let imax = m.min(nballs) as u32;
    let pows: Vec<BigInt> = (0..=imax).map(|j| Pow::pow(BigInt::from(j), nb)).collect();
    let mut sum = BigInt::zero();
    let mut falling = BigInt::one(); // i! C(m, i) = (m)_i
    for i in 1..=imax {
        falling *= BigInt::from(m - (i as u64 - 1));
        let s = BigInt::from(stirling2_from_powers(i, &pows));
        sum += Pow::pow(BigInt::from(i), k) * &falling * s;
    }
    let denom = Pow::pow(BigInt::from(m), k as u64 * (n + 1));
    Ok(BigRational::new(sum, denom))
}

/// [`standard_exact_stirling`] rounded to f64.
pub fn standard_exact_stirling_f64(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    Ok(ratio_to_f64(&standard_exact_stirling(m, n, k)?))
}

/// Nearest-ish f64 of a non-negative rational (error below 1 ulp), also for
/// values far below 2^-1022 or far above 2^1023 as long as the result is
/// representable (a subnormal result loses precision as subnormals do).
pub fn ratio_to_f64(r: &BigRational) -> f64 {
    let num = r.numer().clone();
    let den = r.denom().clone();
    if num.is_zero() {
        return 0.0;
    }
    // Scale so the integer quotient has at least 64 significant bits.
    let shift = 64i64 - (num.bits() as i64 - den.bits() as i64);
    let q = if shift >= 0 {
        (num << shift as usize) / den
    } else {
        num / (den << (-shift) as usize)
    };
    // Scale by 2^-shift in steps of at most 2^1000, each exact while the
    // running value stays normal, so only a result outside f64's range is lost.
    let mut value = q.to_f64().unwrap_or(f64::NAN);
    let mut exponent = -shift;
    while exponent != 0 && value != 0.0 && value.is_finite() {
        let step = exponent.clamp(-1000, 1000);
        value *= 2f64.powi(step as i32);
        exponent -= step;
    }
    value
}
