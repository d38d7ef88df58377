//! Exact false-positive rates: the paper's values, the three standard-layout
//! methods against each other, the partitioned layout, and an exact-rational
//! reference for large m.

use golden::theory::*;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Pow, Zero};

fn q(a: i64, b: i64) -> BigRational {
    BigRational::new(BigInt::from(a), BigInt::from(b))
}

#[test]
fn standard_m4_n1_k2_is_13_64() {
    assert_eq!(standard_exact_stirling(4, 1, 2).unwrap(), q(13, 64));
    assert_eq!(
        standard_exact_table_generic::<BigRational>(4, 1, 2).unwrap(),
        q(13, 64)
    );
    assert!(rel_diff(standard_exact(4, 1, 2).unwrap(), 13.0 / 64.0) < 1e-15);
}

#[test]
fn standard_m8_n2_k2_is_5825_32768() {
    assert_eq!(standard_exact_stirling(8, 2, 2).unwrap(), q(5825, 32768));
    assert_eq!(
        standard_exact_table_generic::<BigRational>(8, 2, 2).unwrap(),
        q(5825, 32768)
    );
    assert!(rel_diff(standard_exact(8, 2, 2).unwrap(), 5825.0 / 32768.0) < 1e-15);
}

#[test]
fn standard_m2_n1_k1_and_k2_by_enumeration() {
    // Two bits (Bose et al.'s example): with k = 2, one item sets 1 bit with
    // probability 1/2 and 2 bits with probability 1/2, so the rate is
    // 1/2 * (1/2)^2 + 1/2 * 1 = 5/8; the classic formula says (3/4)^2 = 9/16.
    assert_eq!(standard_exact_stirling(2, 1, 2).unwrap(), q(5, 8));
    assert_eq!(classic_rational(2, 1, 2).unwrap(), q(9, 16));
    assert_eq!(standard_exact_stirling(2, 1, 1).unwrap(), q(1, 2));
}

#[test]
fn partitioned_m8_n2_k4_is_81_256() {
    assert_eq!(partitioned_exact_rational(8, 2, 4).unwrap(), q(81, 256));
    assert!(rel_diff(partitioned_exact(8, 2, 4).unwrap(), 81.0 / 256.0) < 1e-15);
    assert_eq!(
        bloom1970(8, 2, 4).unwrap(),
        partitioned_exact(8, 2, 4).unwrap()
    );
}

#[test]
fn partitioned_more_rationals() {
    // m = 4, k = 2: banks of 2 bits; one item sets one bit per bank -> (1/2)^2.
    assert_eq!(partitioned_exact_rational(4, 1, 2).unwrap(), q(1, 4));
    // m = 6, k = 3, n = 2: per bank of 2 bits P(set) = 1 - (1/2)^2 = 3/4 -> 27/64.
    assert_eq!(partitioned_exact_rational(6, 2, 3).unwrap(), q(27, 64));
    // m = 12, k = 2, n = 3: banks of 6, P(set) = 1 - (5/6)^3 = 91/216.
    assert_eq!(
        partitioned_exact_rational(12, 3, 2).unwrap(),
        q(91 * 91, 216 * 216)
    );
}

#[test]
fn table_algorithm_in_rationals_equals_stirling_form() {
    for m in 1..=9u64 {
        for n in 0..=4u64 {
            for k in 1..=4u32 {
                let t = standard_exact_table_generic::<BigRational>(m, n, k).unwrap();
                let s = standard_exact_stirling(m, n, k).unwrap();
                assert_eq!(t, s, "m={m} n={n} k={k}");
            }
        }
    }
}

#[test]
fn k1_gives_the_classic_value_exactly() {
    for m in [1u64, 2, 3, 7, 16, 64, 100] {
        for n in [0u64, 1, 2, 5, 17, 40] {
            assert_eq!(
                standard_exact_stirling(m, n, 1).unwrap(),
                classic_rational(m, n, 1).unwrap(),
                "m={m} n={n}"
            );
        }
    }
    for (m, n) in [
        (64u64, 10u64),
        (1 << 20, 700_000),
        (1 << 32, 3_000_000_000),
        (1 << 40, 12345),
    ] {
        let f = standard_exact(m, n, 1).unwrap();
        let c = classic(m, n, 1).unwrap();
        assert!(rel_diff(f, c) < 1e-13, "m={m} n={n}: {f} vs {c}");
    }
}

#[test]
fn three_methods_agree_to_1e_12_on_small_filters() {
    let mut checked = 0;
    for m in [1u64, 2, 3, 5, 8, 16, 32, 33, 64, 100, 128, 256] {
        for n in [1u64, 2, 3, 4, 8, 16, 30, 64] {
            for k in [1u32, 2, 3, 4, 5, 6, 8, 11, 16] {
                if k as u64 * n > 1024 {
                    continue;
                }
                let s = standard_exact_stirling_f64(m, n, k).unwrap();
                let t = standard_exact_table(m, n, k).unwrap();
                let f = standard_exact(m, n, k).unwrap();
                assert!(
                    rel_diff(s, t) < 1e-12,
                    "table m={m} n={n} k={k}: {t:e} vs {s:e}"
                );
                assert!(
                    rel_diff(s, f) < 1e-12,
                    "fast m={m} n={n} k={k}: {f:e} vs {s:e}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 500);
}

#[test]
fn fast_agrees_with_table_on_medium_filters() {
    for (m, n, k) in [
        (1024u64, 100u64, 7u32),
        (1024, 1000, 4),
        (4096, 300, 9),
        (2048, 2048, 2),
        (777, 90, 6),
        (512, 600, 5),
    ] {
        let t = standard_exact_table(m, n, k).unwrap();
        let f = standard_exact(m, n, k).unwrap();
        assert!(
            rel_diff(t, f) < 1e-12,
            "m={m} n={n} k={k}: table {t:e} fast {f:e}"
        );
    }
}

#[test]
fn m32_n4_conventional_k6_exact_optimum_5() {
    use golden::theory::optimal::*;
    assert_eq!(conventional_k(32, 4).unwrap(), 6);
    let (k, r) = exact_optimal_k(Layout::Standard, 32, 4, 64)
        .unwrap()
        .unwrap();
    assert_eq!(k, 5);
    assert!(r < standard_exact(32, 4, 6).unwrap());
}

#[test]
fn exact_standard_exceeds_classic() {
    // CRJ's lemma: the true rate is never below Eq. 1.
    for (m, n, k) in [
        (32u64, 4u64, 5u32),
        (64, 8, 4),
        (1 << 20, 100_000, 7),
        (1 << 40, 1 << 36, 11),
    ] {
        let e = standard_exact(m, n, k).unwrap();
        let c = classic(m, n, k).unwrap();
        assert!(e > c, "m={m} n={n} k={k}: exact {e} classic {c}");
    }
}

/// Exact rational reference through falling-factorial moments, sum over j and
/// i of S(k,j) (m)_j / m^k (-1)^i C(j,i) ((m-i)/m)^N, for N*log2(m) up to a few
/// hundred thousand bits.
fn moments_reference(m: u64, n: u64, k: u32) -> f64 {
    let nballs = k as u64 * n;
    let jmax = (k as u64).min(m) as u32;
    let mm = BigInt::from(m);
    let pows: Vec<BigInt> = (0..=jmax)
        .map(|i| Pow::pow(&mm - BigInt::from(i), nballs))
        .collect();
    let mut total = BigInt::zero();
    let mut falling = BigInt::one();
    for j in 1..=jmax {
        falling *= BigInt::from(m - (j as u64 - 1));
        let s = BigInt::from(stirling2(k, j));
        let mut pj = BigInt::zero();
        let mut binom = BigInt::one();
        for i in 0..=j {
            let t = &binom * &pows[i as usize];
            if i % 2 == 0 {
                pj += t
            } else {
                pj -= t
            }
            binom = binom * BigInt::from(j - i) / BigInt::from(i + 1);
        }
        // w_j carries 1/m^k, P_j carries 1/m^N.
        total += s * &falling * pj;
    }
    ratio_to_f64(&BigRational::new(total, Pow::pow(&mm, k as u64 + nballs)))
}

#[test]
fn reference_matches_stirling_on_small_cases() {
    for (m, n, k) in [(4u64, 1u64, 2u32), (8, 2, 2), (64, 8, 4), (100, 3, 20)] {
        assert!(
            rel_diff(
                moments_reference(m, n, k),
                standard_exact_stirling_f64(m, n, k).unwrap()
            ) < 1e-15
        );
    }
}

#[test]
fn fast_matches_exact_reference_for_large_m_and_k_up_to_64() {
    // Sparse filters of up to 2^40 bits, where plain f64 inclusion–exclusion
    // loses everything, and k up to 64.
    let cases: [(u64, u64, u32); 11] = [
        (1 << 40, 1, 2),
        (1 << 40, 500, 10),
        (1 << 40, 100, 14),
        (1 << 32, 7, 30),
        (1 << 32, 200, 14),
        ((1 << 40) - 3, 50, 20),
        (1_000_003, 1_000, 9),
        (1 << 20, 100, 64),
        (1 << 16, 100, 64),
        (65_536, 500, 16),
        (4096, 200, 64),
    ];
    for (m, n, k) in cases {
        let r = moments_reference(m, n, k);
        let f = standard_exact(m, n, k).unwrap();
        assert!(
            r > 1e-300 && r.is_finite(),
            "reference m={m} n={n} k={k}: {r}"
        );
        assert!(
            rel_diff(r, f) < 1e-12,
            "m={m} n={n} k={k}: fast {f:e} reference {r:e}"
        );
    }
}

#[test]
fn fast_matches_exact_reference_across_the_dense_threshold() {
    // Around lambda = kn/m = 4 the fast method switches branch.
    for (m, k) in [(512u64, 8u32), (256, 64), (1021, 16)] {
        for lambda_x10 in [30u64, 38, 39, 40, 41, 45, 60] {
            let n = (m * lambda_x10 / 10 / k as u64).max(1);
            let r = moments_reference(m, n, k);
            let f = standard_exact(m, n, k).unwrap();
            assert!(
                rel_diff(r, f) < 1e-12,
                "m={m} n={n} k={k}: fast {f:e} reference {r:e}"
            );
        }
    }
}

#[test]
fn fast_is_monotone_and_finite_for_huge_parameters() {
    // m = 2^40 with n far past any exact reference: results stay finite, in
    // [classic, 1], and grow with n.
    let m = 1u64 << 40;
    let mut last = 0.0;
    for n in [
        1u64 << 30,
        1 << 34,
        1 << 36,
        1 << 38,
        1 << 40,
        1 << 44,
        1 << 50,
        u64::MAX / 64,
    ] {
        for k in [1u32, 14, 64] {
            let f = standard_exact(m, n, k).unwrap();
            let c = classic(m, n, k).unwrap();
            assert!(
                f.is_finite() && f <= 1.0 && f >= c * (1.0 - 1e-12),
                "n={n} k={k}: {f} classic {c}"
            );
        }
        let f = standard_exact(m, n, 14).unwrap();
        assert!(f >= last, "n={n}: {f} < {last}");
        last = f;
    }
}

#[test]
fn bad_arguments_are_errors() {
    assert!(standard_exact(0, 1, 1).is_err());
    assert!(standard_exact(8, 1, 0).is_err());
    assert!(standard_exact(8, 1, 65).is_err());
    assert!(partitioned_exact(10, 1, 3).is_err());
    assert!(classic(8, 1, 0).is_err());
    assert!(bloom1970(2, 1, 3).is_err());
    assert!(standard_exact_stirling(2000, 1, 1).is_err());
}

#[test]
fn n0_rates_are_zero() {
    assert_eq!(standard_exact(64, 0, 4).unwrap(), 0.0);
    assert_eq!(standard_exact_table(64, 0, 4).unwrap(), 0.0);
    assert_eq!(partitioned_exact(64, 0, 4).unwrap(), 0.0);
    assert_eq!(classic(64, 0, 4).unwrap(), 0.0);
}

#[test]
fn both_branches_of_the_fast_method_agree_at_m_2_40() {
    // Where neither the table nor an exact rational can run: the compensated
    // inclusion–exclusion and the positive binomial sum are independent
    // computations, both accurate for lambda = kn/m in [4, 8].
    let m = 1u64 << 40;
    for k in [4u32, 14, 64] {
        for lambda_x2 in [8u64, 9, 10, 12, 16] {
            let n = m * lambda_x2 / 2 / k as u64;
            let dense = golden::theory::standard_exact_branch(m, n, k, true).unwrap();
            let sparse = golden::theory::standard_exact_branch(m, n, k, false).unwrap();
            assert!(
                rel_diff(dense, sparse) < 1e-12,
                "k={k} n={n}: dense {dense:e} sparse {sparse:e}"
            );
        }
    }
}
