//! Counting-filter theory (golden::theory::counting): the f64 functions
//! against exact rationals, the survey's §2.5 figure, sizing, and Monte Carlo
//! runs of the golden CountingFilter against every expectation (seeded,
//! deterministic).

mod common;

use common::SplitMix64;
use golden::theory::counting::*;
use golden::theory::{partitioned_exact, ratio_to_f64, rel_diff, TheoryError};
use golden::{CoreParams, CounterBits, CountingFilter, HashFamily};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Pow};

const LN_2: f64 = std::f64::consts::LN_2;

fn c(bits: u32) -> CounterBits {
    CounterBits::new(bits).unwrap()
}

/// n at the optimal k for banks of `bank` counters: n / bank = ln 2.
fn optimal_n(bank: u64) -> u64 {
    (bank as f64 * LN_2).round() as u64
}

#[test]
fn counter_tail_agrees_with_exact_rational_to_1e_12() {
    let mut worst = 0.0f64;
    let mut points = 0;
    for bins in [2u64, 3, 7, 64, 1000, 4096, 65536] {
        for trials in [1u64, 2, 10, 44, 100, 710, 2839, 20_000] {
            for j in [1u64, 2, 3, 7, 15, 16, 31, 63, 127, 255] {
                let fast = counter_tail(trials, bins, j).unwrap();
                let exact = ratio_to_f64(&counter_tail_rational(trials, bins, j).unwrap());
                if exact < 1e-300 {
                    assert!(
                        fast < 1e-290,
                        "bins={bins} n={trials} j={j}: {fast:e} vs {exact:e}"
                    );
                    continue;
                }
                let diff = rel_diff(fast, exact);
                worst = worst.max(diff);
                points += 1;
                assert!(
                    diff < 1e-12,
                    "bins={bins} n={trials} j={j}: {fast:e} vs exact {exact:e}"
                );
            }
        }
    }
    eprintln!("counter_tail vs exact: {points} points, worst relative difference {worst:e}");
}

#[test]
fn counter_tail_b16_c4_optimal_load_agrees_with_exact_rational() {
    let bank = 1u64 << 16;
    let n = optimal_n(bank);
    for j in [15u64, 16] {
        let fast = counter_tail(n, bank, j).unwrap();
        let exact = ratio_to_f64(&counter_tail_rational(n, bank, j).unwrap());
        assert!(
            rel_diff(fast, exact) < 1e-12,
            "j={j}: {fast:e} vs {exact:e}"
        );
    }
}

#[test]
fn counter_tail_is_one_minus_the_binomial_cdf_for_small_cases() {
    // bins = 4, trials = 3: P(T >= 2) = 3 (1/4)^2 (3/4) + (1/4)^3 = 10/64.
    let exact = counter_tail_rational(3, 4, 2).unwrap();
    assert_eq!(exact, BigRational::new(10.into(), 64.into()));
    assert!(rel_diff(counter_tail(3, 4, 2).unwrap(), 10.0 / 64.0) < 1e-15);
    // j = 1: 1 - (1 - 1/M)^n, the set-bit probability of a one-hash bank.
    for (bins, trials) in [(64u64, 44u64), (4096, 2839)] {
        let set = 1.0 - (1.0 - 1.0 / bins as f64).powi(trials as i32);
        assert!(rel_diff(counter_tail(trials, bins, 1).unwrap(), set) < 1e-12);
    }
}

/// Survey §2.5: P(max c(i) >= 16) <= 1.37e-15 m for k <= (ln 2) m / n.
#[test]
fn survey_bound_c4_is_1_37e_15_per_counter_and_above_the_exact_tail() {
    let survey16 = survey_counter_bound(16);
    assert!((survey16 - 1.37e-15).abs() < 0.005e-15, "{survey16:e}");
    let survey15 = survey_counter_bound(15);
    assert!((survey15 - 3.06e-14).abs() < 0.005e-14, "{survey15:e}");
    eprintln!("c = 4 at the optimal k (n = M ln 2), per counter:");
    eprintln!("  bank  P(T>=16) exact  survey (e ln2/16)^16  P(T>=15) exact  (e ln2/15)^15");
    for b in [6u32, 8, 10, 12, 14, 16] {
        let bank = 1u64 << b;
        let n = optimal_n(bank);
        let t16 = counter_tail(n, bank, 16).unwrap();
        let t15 = counter_tail(n, bank, 15).unwrap();
        eprintln!(
            "  2^{b:<2}  {t16:.3e}       {survey16:.3e}             {t15:.3e}       {survey15:.3e}"
        );
        // The survey's bound holds (its event), with room to spare.
        assert!(t16 < survey16 / 10.0, "b={b}: {t16:e}");
        // For the saturating counter's event the survey-style bound holds too.
        assert!(t15 < survey15 / 10.0, "b={b}: {t15:e}");
        // Reaching 15 is 20 to 35 times likelier than reaching 16.
        assert!((15.0..40.0).contains(&(t15 / t16)), "b={b}: {}", t15 / t16);
    }
    // The large-bank figures (Poisson(ln 2) limit): 7.06e-17 and 1.63e-15.
    let bank = 1u64 << 16;
    let n = optimal_n(bank);
    assert!((counter_tail(n, bank, 16).unwrap() - 7.056e-17).abs() < 0.001e-17);
    assert!((counter_tail(n, bank, 15).unwrap() - 1.633e-15).abs() < 0.001e-15);
}

/// The default configuration (k = 4, b = 12) at its optimal load.
#[test]
fn overflow_table_k4_b12_optimal_load() {
    let m = 4 * 4096;
    let n = optimal_n(4096);
    let table = overflow_table(m, n, 4).unwrap();
    assert_eq!(
        table
            .iter()
            .map(|r| r.counter_bits.get())
            .collect::<Vec<_>>(),
        (2..=8).collect::<Vec<_>>()
    );
    eprintln!("k = 4, b = 12, n = {n}: c, S, P(T >= S), E[saturated] = union bound, lower bound, survey form");
    for row in &table {
        eprintln!(
            "  {} {:>3} {:.3e} {:.3e} {:.3e} {:.3e}",
            row.counter_bits,
            row.saturation,
            row.counter_tail,
            row.expected_saturated,
            row.overflow_lower,
            row.survey_bound.unwrap()
        );
        assert_eq!(row.expected_saturated, m as f64 * row.counter_tail);
        assert!(row.overflow_lower <= row.overflow_upper);
        assert!(row.expected_saturated <= row.loose_bound);
        assert!(row.loose_bound <= row.survey_bound.unwrap() * (1.0 + 1e-3));
    }
    let c4 = &table[2];
    assert_eq!(c4.saturation, 15);
    assert!(
        (c4.expected_saturated - 2.591e-11).abs() < 0.001e-11,
        "{:e}",
        c4.expected_saturated
    );
    let c3 = &table[1];
    assert!(
        (c3.expected_saturated - 0.1358).abs() < 0.0001,
        "{}",
        c3.expected_saturated
    );
    // Tails fall with every extra bit.
    for pair in table.windows(2) {
        assert!(pair[1].counter_tail <= pair[0].counter_tail);
    }
}

#[test]
fn counter_bits_1_tail_is_the_set_bit_probability() {
    let (m, n, k) = (4 * 64u64, 40u64, 4u32);
    let row = counter_overflow(m, n, k, CounterBits::PLAIN).unwrap();
    assert_eq!(row.saturation, 1);
    let fpr = partitioned_exact(m, n, k).unwrap();
    assert!(rel_diff(row.counter_tail.powi(k as i32), fpr) < 1e-12);
}

#[test]
fn partitioned_tail_is_slightly_below_the_standard_layouts() {
    // Binomial(n, k/m) against the survey's Binomial(nk, 1/m): same mean, less variance.
    for (b, k) in [(6u32, 4u32), (12, 4), (12, 16), (16, 8)] {
        let bank = 1u64 << b;
        let n = optimal_n(bank);
        for j in [3u64, 7, 15] {
            let part = counter_tail(n, bank, j).unwrap();
            let standard = counter_tail(n * k as u64, bank * k as u64, j).unwrap();
            assert!(
                part < standard,
                "b={b} k={k} j={j}: {part:e} vs {standard:e}"
            );
        }
    }
}

#[test]
fn smallest_counter_bits_is_the_first_width_meeting_the_target() {
    let m = 4 * 4096;
    let n = optimal_n(4096);
    // c = 3: 0.136 expected saturated counters; c = 4: 2.6e-11.
    for (target, expected) in [
        (0.5, 3u32),
        (0.14, 3),
        (0.1, 4),
        (1e-9, 4),
        (2.6e-11, 4),
        (2.5e-11, 5),
        (1e-30, 5),
    ] {
        let row = smallest_counter_bits(m, n, 4, target).unwrap();
        assert_eq!(row.counter_bits.get(), expected, "target {target:e}");
        assert!(row.overflow_upper <= target);
        let narrower = counter_overflow(m, n, 4, c(expected - 1)).unwrap();
        assert!(narrower.overflow_upper > target || expected == 2);
    }
    // A heavily overloaded filter: 300 increments per counter on average.
    let err = smallest_counter_bits(64, 64 * 300, 1, 1e-6).unwrap_err();
    assert!(matches!(err, TheoryError::Unreachable(_)));
    assert!(err.to_string().contains("8-bit counters"), "{err}");
}

#[test]
fn delete_of_absent_f64_agrees_with_exact_rational() {
    for (m, n, k) in [
        (128u64, 40u64, 2u32),
        (256, 1, 4),
        (256, 0, 4),
        (4 * 4096, 2839, 4),
        (4 * 65536, 45426, 4),
        (3 * 1000, 700, 3),
    ] {
        let fast = delete_of_absent(m, n, k).unwrap();
        let (carried, expected) = delete_of_absent_rational(m, n, k).unwrap();
        let (carried, expected) = (ratio_to_f64(&carried), ratio_to_f64(&expected));
        assert!(
            rel_diff(fast.carried_out, carried) < 1e-12,
            "m={m} n={n} k={k}"
        );
        assert!(
            rel_diff(fast.expected_false_negatives, expected) < 1e-12,
            "m={m} n={n} k={k}"
        );
        assert!(rel_diff(fast.carried_out, partitioned_exact(m, n, k).unwrap()) < 1e-12);
        if carried > 0.0 {
            assert!(rel_diff(fast.false_negatives_given_carried_out, expected / carried) < 1e-12);
        }
    }
    // One key, one bank of 4: y's counter is non-zero iff it is x's, and then
    // x is alone on it: P = 1/4, E[false negatives] = 1/4.
    let (carried, expected) = delete_of_absent_rational(4, 1, 1).unwrap();
    let quarter = BigRational::new(1.into(), 4.into());
    assert_eq!((carried, expected), (quarter.clone(), quarter));
}

#[test]
fn saturation_drift_agrees_with_exact_rational() {
    for (m, n, k, bits, epochs) in [
        (128u64, 44u64, 2u32, 2u32, 5u64),
        (256, 100, 4, 3, 50),
        (4 * 4096, 2839, 4, 2, 10),
    ] {
        let d = saturation_drift(m, n, k, c(bits), epochs).unwrap();
        let bank = m / k as u64;
        let q = counter_tail_rational(n, bank, (1 << bits) - 1).unwrap();
        let free: BigRational = Pow::pow(BigRational::one() - &q, epochs);
        let stuck = BigRational::one() - &free;
        let zero = BigRational::new(
            Pow::pow(BigInt::from(bank - 1), n),
            Pow::pow(BigInt::from(bank), n),
        );
        let empty = zero * Pow::pow(BigRational::one() - &q, epochs - 1);
        let nonzero = BigRational::one() - empty;
        let fpr: BigRational = Pow::pow(&nonzero, k);
        assert!(rel_diff(d.stuck_per_counter, ratio_to_f64(&stuck)) < 1e-12);
        assert!(rel_diff(d.expected_fill, m as f64 * ratio_to_f64(&nonzero)) < 1e-12);
        assert!(rel_diff(d.fpr, ratio_to_f64(&fpr)) < 1e-12);
        assert!(d.fpr >= d.fpr_fresh);
    }
    // One epoch: nothing stuck from before, the fresh rate.
    let d = saturation_drift(4 * 4096, 2839, 4, c(4), 1).unwrap();
    assert_eq!(d.fpr, d.fpr_fresh);
}

// ---- Monte Carlo with the golden CountingFilter ----

/// Mean and standard error of samples.
fn mean_se(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Runs `trials` trials, each on an empty counting filter; a new hash seed
/// every 50 trials (with uniformly random keys the addresses of a fixed
/// full-rank H3 are already independent and uniform).
fn monte_carlo(
    k: u32,
    b: u32,
    bits: u32,
    trials: usize,
    stream: u64,
    mut trial: impl FnMut(&mut CountingFilter, &mut SplitMix64) -> f64,
) -> Vec<f64> {
    let mut rng = SplitMix64::new(stream);
    let mut filter = CountingFilter::new(
        CoreParams::new(k, b, 64, HashFamily::H3, 0).unwrap(),
        c(bits),
    );
    (0..trials)
        .map(|t| {
            if t % 50 == 0 {
                filter = CountingFilter::new(
                    CoreParams::new(k, b, 64, HashFamily::H3, stream ^ t as u64).unwrap(),
                    c(bits),
                );
            } else {
                filter.clear();
            }
            trial(&mut filter, &mut rng)
        })
        .collect()
}

fn insert_fresh(filter: &mut CountingFilter, rng: &mut SplitMix64, n: u64) -> Vec<u128> {
    let keys: Vec<u128> = (0..n).map(|_| rng.key(64)).collect();
    for &key in &keys {
        filter.insert(key).unwrap();
    }
    keys
}

#[test]
fn monte_carlo_k4_b6_c2_n100_saturated_counters_match_expectation() {
    let (k, b, n) = (4u32, 6u32, 100u64);
    let expected = counter_overflow(k as u64 * 64, n, k, c(2))
        .unwrap()
        .expected_saturated;
    let samples = monte_carlo(k, b, 2, 4000, 11, |filter, rng| {
        insert_fresh(filter, rng, n);
        filter.saturated().iter().sum::<u32>() as f64
    });
    let (mean, se) = mean_se(&samples);
    eprintln!("k=4 b=6 c=2 n=100: saturated counters {mean:.3} ± {se:.3}, expected {expected:.3}");
    assert!(
        (mean - expected).abs() < 4.0 * se,
        "{mean} ± {se} vs {expected}"
    );
}

#[test]
fn monte_carlo_k4_b6_c2_n12_overflow_probability_lies_between_the_bounds() {
    let (k, b, n) = (4u32, 6u32, 12u64);
    let row = counter_overflow(k as u64 * 64, n, k, c(2)).unwrap();
    let samples = monte_carlo(k, b, 2, 20_000, 12, |filter, rng| {
        insert_fresh(filter, rng, n);
        (filter.saturated().iter().sum::<u32>() > 0) as u32 as f64
    });
    let (p, se) = mean_se(&samples);
    eprintln!(
        "k=4 b=6 c=2 n=12: P(some counter saturates) {p:.4} ± {se:.4}, bounds [{:.4}, {:.4}]",
        row.overflow_lower, row.overflow_upper
    );
    assert!(
        row.overflow_upper - row.overflow_lower < 0.03,
        "the bounds are tight here"
    );
    assert!(p > row.overflow_lower - 4.0 * se && p < row.overflow_upper + 4.0 * se);
}

#[test]
fn monte_carlo_k2_b6_n40_delete_of_absent_key() {
    let (k, b, n) = (2u32, 6u32, 40u64);
    let theory = delete_of_absent(k as u64 * 64, n, k).unwrap();
    let mut carried = Vec::new();
    let false_negatives = monte_carlo(k, b, 4, 20_000, 13, |filter, rng| {
        let keys = insert_fresh(filter, rng, n);
        let y = rng.key(64);
        carried.push(filter.delete(y).unwrap() as u32 as f64);
        keys.iter().filter(|&&x| !filter.query(x).unwrap()).count() as f64
    });
    let (p, p_se) = mean_se(&carried);
    let (fn_mean, fn_se) = mean_se(&false_negatives);
    eprintln!(
        "k=2 b=6 n=40, one delete of an absent key: carried out {p:.4} ± {p_se:.4} (theory {:.4}), \
         false negatives {fn_mean:.4} ± {fn_se:.4} (theory {:.4})",
        theory.carried_out, theory.expected_false_negatives
    );
    assert!((p - theory.carried_out).abs() < 4.0 * p_se);
    assert!((fn_mean - theory.expected_false_negatives).abs() < 4.0 * fn_se);
}

#[test]
fn monte_carlo_k2_b6_c2_n44_five_epochs_saturation_drift() {
    let (k, b, n, epochs) = (2u32, 6u32, 44u64, 5u64);
    let theory = saturation_drift(k as u64 * 64, n, k, c(2), epochs).unwrap();
    let (mut fills, mut fprs) = (Vec::new(), Vec::new());
    let stuck = monte_carlo(k, b, 2, 3000, 14, |filter, rng| {
        for epoch in 1..=epochs {
            let keys = insert_fresh(filter, rng, n);
            if epoch == epochs {
                fills.push(filter.fill().iter().sum::<u32>() as f64);
                let queries = 64;
                let hits = (0..queries)
                    .filter(|_| filter.query(rng.key(64)).unwrap())
                    .count();
                fprs.push(hits as f64 / queries as f64);
            }
            for &key in &keys {
                assert!(
                    filter.delete(key).unwrap(),
                    "a key of the set must be present"
                );
            }
        }
        // Everything deleted: what is left is exactly the stuck counters.
        assert_eq!(filter.fill(), filter.saturated());
        filter.saturated().iter().sum::<u32>() as f64
    });
    let (stuck_mean, stuck_se) = mean_se(&stuck);
    let (fill_mean, fill_se) = mean_se(&fills);
    let (fpr_mean, fpr_se) = mean_se(&fprs);
    eprintln!(
        "k=2 b=6 c=2 n=44 after {epochs} epochs: stuck {stuck_mean:.3} ± {stuck_se:.3} (theory {:.3}), \
         fill {fill_mean:.3} ± {fill_se:.3} (theory {:.3}), fpr {fpr_mean:.4} ± {fpr_se:.4} (theory {:.4}, fresh {:.4})",
        theory.expected_stuck, theory.expected_fill, theory.fpr, theory.fpr_fresh
    );
    assert!((stuck_mean - theory.expected_stuck).abs() < 4.0 * stuck_se);
    assert!((fill_mean - theory.expected_fill).abs() < 4.0 * fill_se);
    assert!((fpr_mean - theory.fpr).abs() < 4.0 * fpr_se);
    assert!(
        fpr_mean - theory.fpr_fresh > 4.0 * fpr_se,
        "the drift is visible"
    );
}

#[test]
fn ratio_to_f64_keeps_values_far_below_2_pow_minus_1022() {
    let pow2 = |e: u32| BigInt::from(2).pow(e);
    let r = BigRational::new(BigInt::from(3), pow2(1000));
    assert_eq!(ratio_to_f64(&r), 3.0 * 2f64.powi(-500) * 2f64.powi(-500));
    let r = BigRational::new(BigInt::from(1), pow2(1050));
    assert_eq!(ratio_to_f64(&r), 2f64.powi(-525) * 2f64.powi(-525));
    let r = BigRational::new(pow2(1010), BigInt::from(7));
    assert!(rel_diff(ratio_to_f64(&r), 2f64.powi(505) * 2f64.powi(505) / 7.0) < 1e-15);
}

/// The figures docs/theory.md quotes for the default core (k = 4, b = 12) at
/// its optimal load, n = 2839 keys per set.
#[test]
fn default_core_k4_b12_drift_and_delete_of_absent_figures() {
    let (m, n, k) = (4 * 4096u64, 2839u64, 4u32);
    for (bits, epochs, stuck, fpr) in [
        (2u32, 10u64, 4705.65, 0.15889),
        (2, 100, 15829.33, 0.93178),
        (3, 10, 1.3581, 0.062532),
        (3, 1000, 135.255, 0.064601),
        (3, 1_000_000, 16379.89, 0.99950),
    ] {
        let d = saturation_drift(m, n, k, c(bits), epochs).unwrap();
        assert!(
            rel_diff(d.expected_stuck, stuck) < 1e-4,
            "c={bits} t={epochs}: {}",
            d.expected_stuck
        );
        assert!(
            rel_diff(d.fpr, fpr) < 1e-4,
            "c={bits} t={epochs}: {}",
            d.fpr
        );
        assert!(rel_diff(d.fpr_fresh, 0.0625132) < 1e-5);
    }
    let d = saturation_drift(m, n, k, c(4), 1_000_000).unwrap();
    assert!((d.expected_stuck - 2.59e-5).abs() < 0.01e-5 && rel_diff(d.fpr, d.fpr_fresh) < 1e-8);
    let del = delete_of_absent(m, n, k).unwrap();
    assert!(rel_diff(del.carried_out, 0.0625132) < 1e-5);
    assert!(rel_diff(del.expected_false_negatives, 0.173276) < 1e-5);
    assert!(rel_diff(del.false_negatives_given_carried_out, 2.77183) < 1e-5);
    // Large banks at the optimal load: k ln 2 keys lost per carried-out delete.
    let big = delete_of_absent(4 << 16, optimal_n(1 << 16), 4).unwrap();
    assert!(
        (big.false_negatives_given_carried_out - 4.0 * LN_2).abs() < 1e-3,
        "{}",
        big.false_negatives_given_carried_out
    );
}
