//! Closed forms: CRJ Eq. 1 (two forms), Eq. 19, and the partitioned rate.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Pow};

use super::{check_m_k, TheoryError};

/// 1 - (1 - x)^e without cancellation when the result is small.
pub(crate) fn one_minus_pow1m(x: f64, e: f64) -> f64 {
    if x >= 1.0 {
        return if e == 0.0 { 0.0 } else { 1.0 };
    }
    -(e * (-x).ln_1p()).exp_m1()
}

/// CRJ Eq. 1: (1 - (1 - 1/m)^(kn))^k.
pub fn classic(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    check_m_k(m, k)?;
    let set = one_minus_pow1m(1.0 / m as f64, k as f64 * n as f64);
    Ok(set.powi(k as i32))
}

/// CRJ Eq. 1, exponential form: (1 - e^(-kn/m))^k (the form of the tables in file 002).
pub fn classic_exp(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    check_m_k(m, k)?;
    let set = -(-(k as f64) * n as f64 / m as f64).exp_m1();
    Ok(set.powi(k as i32))
}

/// CRJ Eq. 19, Bloom's own 1970 expression (1 - (1 - k/m)^n)^k. It is the same
/// expression as [`partitioned_exact`]; this version accepts any m >= k.
pub fn bloom1970(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    check_m_k(m, k)?;
    if (k as u64) > m {
        return Err(TheoryError::OutOfRange {
            parameter: "k",
            value: k.to_string(),
            allowed: format!("<= m = {m} (Bloom's expression needs k/m <= 1)"),
        });
    }
    let set = one_minus_pow1m(k as f64 / m as f64, n as f64);
    Ok(set.powi(k as i32))
}

fn check_partition(m: u64, k: u32) -> Result<(), TheoryError> {
    check_m_k(m, k)?;
    if !m.is_multiple_of(k as u64) {
        return Err(TheoryError::NotMultiple { m, k });
    }
    Ok(())
}

/// Exact false-positive rate of the partitioned layout (k banks of m/k bits,
/// one probe per bank): (1 - (1 - k/m)^n)^k. Needs k | m.
pub fn partitioned_exact(m: u64, n: u64, k: u32) -> Result<f64, TheoryError> {
    check_partition(m, k)?;
    bloom1970(m, n, k)
}

/// [`partitioned_exact`] as an exact rational.
pub fn partitioned_exact_rational(m: u64, n: u64, k: u32) -> Result<BigRational, TheoryError> {
    check_partition(m, k)?;
    let bank = BigInt::from(m / k as u64);
    let n32 = u32::try_from(n).map_err(|_| too_big("n", n))?;
    let zero_one_bank = BigRational::new(Pow::pow(&bank - 1, n32), Pow::pow(&bank, n32));
    Ok(Pow::pow(BigRational::one() - zero_one_bank, k))
}

/// CRJ Eq. 1 as an exact rational.
pub fn classic_rational(m: u64, n: u64, k: u32) -> Result<BigRational, TheoryError> {
    check_m_k(m, k)?;
    let kn = u32::try_from(k as u64 * n).map_err(|_| too_big("k*n", k as u64 * n))?;
    let mm = BigInt::from(m);
    let unset = BigRational::new(Pow::pow(&mm - 1, kn), Pow::pow(&mm, kn));
    Ok(Pow::pow(BigRational::one() - unset, k))
}

pub(crate) fn too_big(parameter: &'static str, value: u64) -> TheoryError {
    TheoryError::OutOfRange {
        parameter,
        value: value.to_string(),
        allowed: "< 2^32 for exact rational arithmetic".into(),
    }
}
