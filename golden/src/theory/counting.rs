//! Counting filters in the partitioned layout (contract §7): counter
//! saturation, its cost, and deletes of keys that were never inserted.
//!
//! Layout: m = k M counters, M = m/k per bank, c bits each, saturation value
//! S = 2^c - 1. With ideal hashing each of n inserted keys increments exactly
//! one counter per bank, uniformly and independently, so without saturation a
//! fixed counter's count is T ~ Binomial(n, 1/M) (the survey's §2.5 has
//! Binomial(nk, 1/m) for the standard layout: the same mean, a little more
//! variance).
//!
//! The event bounded is **a counter reaching S** (T >= S), not the survey's
//! "reaching 2^c": a counter at S is stuck (contract §7.3) whether its true
//! count is S or more, so reaching S is where a saturating counter starts to
//! lose information. docs/theory.md has the derivations.
//!
//! * [`counter_tail`], [`counter_tail_rational`]: P(T >= j), f64 and exact.
//! * [`counter_overflow`]: per-counter tail, expected saturated counters
//!   (exact), P(some counter saturates) between two bounds, and the survey's
//!   bounds for comparison; [`survey_counter_bound`] is the survey's
//!   (e ln 2 / j)^j (1.37e-15 for j = 16).
//! * [`smallest_counter_bits`]: the narrowest counter meeting a target
//!   probability that any counter saturates.
//! * [`saturation_drift`]: stuck counters, fill and false-positive rate after
//!   the filter's set has been replaced a number of times.
//! * [`delete_of_absent`], [`delete_of_absent_rational`]: the probability that
//!   deleting a never-inserted key is carried out and the expected number of
//!   inserted keys it turns into false negatives.
//!
//! Accuracy of the f64 functions: relative error below 1e-12 (tested against
//! the exact rationals), for results within f64's normal range.

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Pow, Zero};

use super::{check_m_k, partitioned_exact, TheoryError};
use crate::counting::CounterBits;

/// Largest trials * log2(bins) for which [`counter_tail_rational`] and
/// [`delete_of_absent_rational`] build their exact powers (2^24 bits, 2 MiB
/// per number).
pub const RATIONAL_MAX_BITS: u64 = 1 << 24;

fn check_bins(bins: u64) -> Result<(), TheoryError> {
    if bins == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "counters per bank",
            value: "0".into(),
            allowed: ">= 1".into(),
        });
    }
    Ok(())
}

/// Counters per bank M = m / k, checking that k divides m.
fn bank_size(m: u64, k: u32) -> Result<u64, TheoryError> {
    check_m_k(m, k)?;
    if !m.is_multiple_of(k as u64) {
        return Err(TheoryError::NotMultiple { m, k });
    }
    Ok(m / k as u64)
}

/// x * 2^exponent, exact while the running value stays normal.
fn scale2(mut x: f64, mut exponent: i64) -> f64 {
    while exponent != 0 && x != 0.0 && x.is_finite() {
        let step = exponent.clamp(-1000, 1000);
        x *= 2f64.powi(step as i32);
        exponent -= step;
    }
    x
}

/// P(T >= j) for T ~ Binomial(trials, 1/bins): the probability that a fixed
/// counter receives at least j of `trials` uniform increments over `bins`
/// counters.
///
/// Below the mean it is 1 - sum_{i<j} pmf(i) (that sum is at most about 0.6,
/// so no cancellation); above it the upper tail is summed from pmf(j) until
/// the remaining terms, shrinking geometrically, are below 1e-17 of the sum.
/// pmf(j) is a product of j ratios kept in range by exact power-of-two
/// rescaling. Relative error below 1e-12; a tail below f64's normal range
/// comes out as 0 or a subnormal.
pub fn counter_tail(trials: u64, bins: u64, j: u64) -> Result<f64, TheoryError> {
    check_bins(bins)?;
    if j == 0 {
        return Ok(1.0);
    }
    if j > trials {
        return Ok(0.0);
    }
    if bins == 1 {
        return Ok(1.0);
    }
    let n = trials as f64;
    let p = 1.0 / bins as f64;
    let odds = p / (1.0 - p);
    // ln (1 - p)^n, the probability of no increment at all.
    let ln_none = n * (-p).ln_1p();
    if (j as f64) <= n * p {
        let mut pmf = ln_none.exp();
        let mut lower = 0.0;
        for i in 0..j {
            lower += pmf;
            pmf *= (n - i as f64) / (i as f64 + 1.0) * odds;
        }
        return Ok((1.0 - lower).max(0.0));
    }
    // pmf(j) = prod_{t<j} (n - t)/(t + 1) * odds * (1 - p)^n, the product as
    // mantissa * 2^exponent.
    let mut mantissa = 1.0f64;
    let mut exponent: i64 = 0;
    for t in 0..j {
        mantissa *= (n - t as f64) / (t as f64 + 1.0) * odds;
        if !(2f64.powi(-500)..=2f64.powi(500)).contains(&mantissa) {
            let shift = mantissa.log2().round() as i64;
            mantissa = scale2(mantissa, -shift);
            exponent += shift;
        }
    }
    // (1 - p)^n = 2^whole * e^rest with rest in (-ln 2, 0], so that no
    // factor underflows before the final power-of-two scaling.
    let whole = (ln_none / std::f64::consts::LN_2).floor();
    let rest = ln_none - whole * std::f64::consts::LN_2;
    let mut pmf = scale2(mantissa * rest.exp(), exponent + whole as i64);
    let mut sum = 0.0;
    let mut i = j;
    loop {
        sum += pmf;
        if i == trials || pmf == 0.0 {
            break;
        }
        let ratio = (n - i as f64) / (i as f64 + 1.0) * odds;
        pmf *= ratio;
        i += 1;
        // Past the mean the ratios only shrink, so once below 1/2 the rest of
        // the tail is at most the current term.
        if ratio < 0.5 && pmf <= sum * 1e-17 {
            break;
        }
    }
    Ok(sum)
}

/// [`counter_tail`] as an exact rational:
/// 1 - sum_{i<j} C(trials, i) (bins - 1)^(trials - i) / bins^trials.
/// For trials * log2(bins) up to [`RATIONAL_MAX_BITS`]. Not reduced to lowest
/// terms (a gcd of megabit numbers costs more than everything else); compare
/// values, not numerators.
pub fn counter_tail_rational(trials: u64, bins: u64, j: u64) -> Result<BigRational, TheoryError> {
    check_bins(bins)?;
    check_rational_size(trials, bins)?;
    if j == 0 {
        return Ok(BigRational::one());
    }
    if j > trials {
        return Ok(BigRational::zero());
    }
    let below = below_j(trials, bins, j);
    let all = Pow::pow(BigUint::from(bins), trials);
    Ok(BigRational::new_raw(
        BigInt::from(&all - below),
        BigInt::from(all),
    ))
}

/// sum_{i<j} C(trials, i) (bins - 1)^(trials - i), for 1 <= j <= trials.
fn below_j(trials: u64, bins: u64, j: u64) -> BigUint {
    // From i = j - 1 down to 0: C(n, i - 1) = C(n, i) i / (n - i + 1), and the
    // power gains one factor of bins - 1 per step.
    let mut binom = BigUint::one();
    for i in 0..j - 1 {
        binom = binom * BigUint::from(trials - i) / BigUint::from(i + 1);
    }
    let mut power = Pow::pow(BigUint::from(bins - 1), trials - (j - 1));
    let mut sum = BigUint::zero();
    for i in (0..j).rev() {
        sum += &binom * &power;
        if i > 0 {
            binom = binom * BigUint::from(i) / BigUint::from(trials - i + 1);
            power *= BigUint::from(bins - 1);
        }
    }
    sum
}

fn check_rational_size(trials: u64, bins: u64) -> Result<(), TheoryError> {
    let bits = trials.saturating_mul(64 - bins.leading_zeros() as u64);
    if bits > RATIONAL_MAX_BITS {
        return Err(TheoryError::OutOfRange {
            parameter: "n * log2(counters per bank)",
            value: bits.to_string(),
            allowed: format!("<= {RATIONAL_MAX_BITS} for exact rational arithmetic"),
        });
    }
    Ok(())
}

/// The survey's bound (§2.5) on the probability that a counter of a filter
/// with k <= (ln 2) m / n reaches j: (e ln 2 / j)^j; 1.37e-15 for j = 16.
pub fn survey_counter_bound(j: u64) -> f64 {
    (std::f64::consts::E * std::f64::consts::LN_2 / j as f64).powf(j as f64)
}

/// Saturation of a counting filter of m = k M counters of c bits holding n
/// keys inserted since the last clear (no deletes), in the partitioned
/// layout. See the module header for the event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CounterOverflow {
    /// Total counters m = k M.
    pub m: u64,
    pub n: u64,
    pub k: u32,
    pub counter_bits: CounterBits,
    /// S = 2^c - 1.
    pub saturation: u32,
    /// n / M: mean increments per counter (ln 2 at the optimal k).
    pub load: f64,
    /// P(a given counter is at S) = P(T >= S), T ~ Binomial(n, 1/M).
    pub counter_tail: f64,
    /// m P(T >= S): the expected number of saturated counters, exactly (by
    /// linearity), and the union bound on P(some counter saturates).
    pub expected_saturated: f64,
    /// P(some counter saturates) <= min(1, expected_saturated).
    pub overflow_upper: f64,
    /// P(some counter saturates) >= expected_saturated - expected_saturated^2 / 2
    /// (Bonferroni; counters of one bank are negatively associated, those of
    /// different banks independent, so a pair saturates together with
    /// probability at most P(T >= S)^2).
    pub overflow_lower: f64,
    /// m (e load / S)^S, the survey's C(n, j) p^j <= (e n p / j)^j applied
    /// to T >= S.
    pub loose_bound: f64,
    /// m (e ln 2 / S)^S, the survey's form, when load <= ln 2 (the survey's
    /// condition k <= (ln 2) m / n).
    pub survey_bound: Option<f64>,
}

/// See [`CounterOverflow`]. k must divide m. With c = 1 (S = 1) the "tail" is
/// the probability that a bit is set.
pub fn counter_overflow(
    m: u64,
    n: u64,
    k: u32,
    counter_bits: CounterBits,
) -> Result<CounterOverflow, TheoryError> {
    let bank = bank_size(m, k)?;
    let s = counter_bits.saturation() as u32;
    let tail = counter_tail(n, bank, s as u64)?;
    let expected = m as f64 * tail;
    let load = n as f64 / bank as f64;
    let loose = m as f64 * (std::f64::consts::E * load / s as f64).powi(s as i32);
    Ok(CounterOverflow {
        m,
        n,
        k,
        counter_bits,
        saturation: s,
        load,
        counter_tail: tail,
        expected_saturated: expected,
        overflow_upper: expected.min(1.0),
        overflow_lower: (expected - expected * expected / 2.0).max(0.0),
        loose_bound: loose,
        survey_bound: (load <= std::f64::consts::LN_2)
            .then(|| m as f64 * survey_counter_bound(s as u64)),
    })
}

/// [`counter_overflow`] for every counting width c = 2..=8, narrowest first:
/// the overflow table of one configuration.
pub fn overflow_table(m: u64, n: u64, k: u32) -> Result<Vec<CounterOverflow>, TheoryError> {
    CounterBits::all()
        .filter(|c| c.is_counting())
        .map(|c| counter_overflow(m, n, k, c))
        .collect()
}

/// The narrowest counter width c in 2..=8 whose probability that some
/// counter saturates, for n keys in m = k M counters, is at most `target`
/// (by the union bound, [`CounterOverflow::overflow_upper`]).
///
/// The bound is for one set of at most n keys. A filter that holds t
/// different sets of at most n keys in its life saturates with probability
/// at most t times it (survey §2.5): size for target / t.
pub fn smallest_counter_bits(
    m: u64,
    n: u64,
    k: u32,
    target: f64,
) -> Result<CounterOverflow, TheoryError> {
    if !(target > 0.0 && target < 1.0) {
        return Err(TheoryError::OutOfRange {
            parameter: "target overflow probability",
            value: target.to_string(),
            allowed: "0 < p < 1".into(),
        });
    }
    let table = overflow_table(m, n, k)?;
    table
        .iter()
        .find(|row| row.overflow_upper <= target)
        .copied()
        .ok_or_else(|| {
            let widest = table.last().expect("widths 2..=8");
            TheoryError::Unreachable(format!(
                "no counter width up to 8 bits keeps the overflow probability of n = {n} keys in \
                 m = {m} counters (k = {k}) at or below {target:e}: 8-bit counters saturate with \
                 probability up to {:.3e}; use more or larger banks",
                widest.overflow_upper
            ))
        })
}

/// The cost of saturation after a filter's set has been replaced `epochs`
/// times: each epoch inserts n fresh keys and, before the next epoch, deletes
/// all of them (no clear in between). Counts in different epochs are
/// independent, so a counter is stuck at S after t epochs with probability
/// 1 - (1 - q)^t, q = P(T >= S).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SaturationDrift {
    pub epochs: u64,
    /// q = P(T >= S) in one epoch.
    pub counter_tail: f64,
    /// 1 - (1 - q)^epochs: probability that a given counter is stuck.
    pub stuck_per_counter: f64,
    /// m times that: the fill left once every key of every epoch has been
    /// deleted (all of it saturated counters).
    pub expected_stuck: f64,
    /// Expected fill (all banks) while the last epoch's n keys are held:
    /// m (1 - z (1 - q)^(epochs - 1)), z = (1 - 1/M)^n.
    pub expected_fill: f64,
    /// False-positive rate of a filter holding n keys with no history:
    /// (1 - z)^k.
    pub fpr_fresh: f64,
    /// False-positive rate while the last epoch's keys are held:
    /// (1 - z (1 - q)^(epochs - 1))^k.
    pub fpr: f64,
}

/// See [`SaturationDrift`]. `epochs` >= 1; k must divide m.
pub fn saturation_drift(
    m: u64,
    n: u64,
    k: u32,
    counter_bits: CounterBits,
    epochs: u64,
) -> Result<SaturationDrift, TheoryError> {
    let bank = bank_size(m, k)?;
    if epochs == 0 {
        return Err(TheoryError::OutOfRange {
            parameter: "epochs",
            value: "0".into(),
            allowed: ">= 1".into(),
        });
    }
    let q = counter_tail(n, bank, counter_bits.saturation() as u64)?;
    // ln (1 - q); q = 1 only when every counter surely saturates.
    let ln_free = (-q).ln_1p();
    let stuck = -(epochs as f64 * ln_free).exp_m1();
    // ln z = n ln(1 - 1/M).
    let ln_zero = n as f64 * (-1.0 / bank as f64).ln_1p();
    let ln_empty = ln_zero + (epochs - 1) as f64 * ln_free;
    let nonzero = -ln_empty.exp_m1();
    Ok(SaturationDrift {
        epochs,
        counter_tail: q,
        stuck_per_counter: stuck,
        expected_stuck: m as f64 * stuck,
        expected_fill: m as f64 * nonzero,
        fpr_fresh: partitioned_exact(m, n, k)?,
        fpr: nonzero.powi(k as i32),
    })
}

/// One delete of a key y that was never inserted, on a counting filter
/// (c >= 2) holding n distinct keys inserted since the last clear and
/// nothing deleted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeleteOfAbsent {
    /// P(the delete is carried out) = P(all k counters of y are non-zero),
    /// the false-positive rate (1 - (1 - 1/M)^n)^k.
    pub carried_out: f64,
    /// Expected number of the n keys that become absent (false negatives):
    /// n ((1 - z)^k - (1 - z - r)^k), z = (1 - 1/M)^n,
    /// r = (1/M)(1 - 1/M)^(n - 1).
    pub expected_false_negatives: f64,
    /// The same, given that the delete was carried out (answered 1).
    pub false_negatives_given_carried_out: f64,
}

/// See [`DeleteOfAbsent`]: key x becomes a false negative iff the delete is
/// carried out and in some bank x shares y's counter with no other key (the
/// counter goes from 1 to 0). Per bank, y's counter is non-zero with
/// probability 1 - z and holds x alone with probability r; the banks are
/// independent. Valid for every c >= 2 (a counter at 1 is below S). k must
/// divide m.
pub fn delete_of_absent(m: u64, n: u64, k: u32) -> Result<DeleteOfAbsent, TheoryError> {
    let bank = bank_size(m, k)? as f64;
    let ln_miss = (-1.0 / bank).ln_1p();
    // 1 - z, the probability that y's counter in one bank is non-zero.
    let set = -(n as f64 * ln_miss).exp_m1();
    let carried_out = set.powi(k as i32);
    let (expected, given) = if n == 0 {
        (0.0, 0.0)
    } else {
        let alone = ((n - 1) as f64 * ln_miss).exp() / bank;
        // (1 - z)^k - (1 - z - r)^k = (1 - z)^k (1 - (1 - r / (1 - z))^k).
        // r <= 1 - z (x alone on y's counter is one way for it to be
        // non-zero); the min only absorbs rounding when they are equal (n = 1).
        let given = -(k as f64 * (-(alone / set).min(1.0)).ln_1p()).exp_m1();
        (n as f64 * carried_out * given, n as f64 * given)
    };
    Ok(DeleteOfAbsent {
        carried_out,
        expected_false_negatives: expected,
        false_negatives_given_carried_out: given,
    })
}

/// [`delete_of_absent`]'s first two quantities as exact rationals:
/// (carried_out, expected_false_negatives). With D = M^n, A = D - (M-1)^n
/// (D times the probability that a counter is non-zero) and R = (M-1)^(n-1)
/// (D times the probability that it holds one given key alone), they are
/// A^k / D^k and n (A^k - (A - R)^k) / D^k, built in integers and not reduced
/// (see [`counter_tail_rational`]). For n * log2(M) up to [`RATIONAL_MAX_BITS`].
pub fn delete_of_absent_rational(
    m: u64,
    n: u64,
    k: u32,
) -> Result<(BigRational, BigRational), TheoryError> {
    let bank = bank_size(m, k)?;
    check_rational_size(n, bank)?;
    let all = Pow::pow(BigUint::from(bank), n);
    let set = &all - Pow::pow(BigUint::from(bank - 1), n);
    let denominator = BigInt::from(Pow::pow(&all, k));
    let set_k = Pow::pow(&set, k);
    let expected = if n == 0 {
        BigUint::zero()
    } else {
        let alone = Pow::pow(BigUint::from(bank - 1), n - 1);
        BigUint::from(n) * (&set_k - Pow::pow(&set - alone, k))
    };
    Ok((
        BigRational::new_raw(BigInt::from(set_k), denominator.clone()),
        BigRational::new_raw(BigInt::from(expected), denominator),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_edge_cases() {
        assert_eq!(counter_tail(10, 4, 0).unwrap(), 1.0);
        assert_eq!(counter_tail(10, 4, 11).unwrap(), 0.0);
        assert_eq!(counter_tail(10, 1, 10).unwrap(), 1.0);
        assert!(counter_tail(10, 0, 1).is_err());
        // P(T >= 1) = 1 - (3/4)^2 = 7/16.
        assert!((counter_tail(2, 4, 1).unwrap() - 7.0 / 16.0).abs() < 1e-16);
        // P(T >= 2) = 1/16.
        assert!((counter_tail(2, 4, 2).unwrap() - 1.0 / 16.0).abs() < 1e-17);
        assert_eq!(
            counter_tail_rational(2, 4, 2).unwrap(),
            BigRational::new(1.into(), 16.into())
        );
        assert_eq!(
            counter_tail_rational(2, 4, 1).unwrap(),
            BigRational::new(7.into(), 16.into())
        );
        assert_eq!(counter_tail_rational(5, 1, 5).unwrap(), BigRational::one());
        assert_eq!(counter_tail_rational(5, 1, 6).unwrap(), BigRational::zero());
    }

    #[test]
    fn bad_arguments_are_errors() {
        let c4 = CounterBits::FOUR;
        assert!(matches!(
            counter_overflow(100, 10, 3, c4),
            Err(TheoryError::NotMultiple { .. })
        ));
        assert!(counter_overflow(0, 10, 1, c4).is_err());
        assert!(smallest_counter_bits(1024, 100, 4, 0.0).is_err());
        assert!(smallest_counter_bits(1024, 100, 4, 1.0).is_err());
        assert!(smallest_counter_bits(1024, 100, 4, f64::NAN).is_err());
        assert!(saturation_drift(1024, 100, 4, c4, 0).is_err());
        assert!(counter_tail_rational(1 << 30, 1 << 16, 15).is_err());
    }
}
