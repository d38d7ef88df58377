//! Measured false-positive rate of the Verilated core against the exact
//! partitioned formula, within 4 standard errors.

mod common;

use common::*;
use sim::fpr::measure_fpr;

fn fpr(spec: &hdl::CoreConfig, n: u64, queries: u64, seed: u64) {
    let mut cosim = fresh(spec);
    let m = measure_fpr(&mut cosim, n, queries, seed).unwrap();
    let r = cosim.report();
    assert_eq!(r.mismatches, 0, "{:?}", r.first_mismatches);
    let (lo, hi) = m.interval95();
    println!(
        "{}: n={} queries={} measured={:.5} exact={:.5} (95% [{lo:.5}, {hi:.5}], se {:.2e}, binomial se {:.2e}) given the fill {:.5} z={:+.2}",
        spec.label(),
        m.inserted,
        m.queries,
        m.measured,
        m.exact,
        m.std_error,
        m.binomial_std_error,
        m.conditional,
        m.z()
    );
    assert_eq!(m.queries, queries);
    assert!(
        m.false_positives > 50,
        "too few false positives to say anything: {}",
        m.false_positives
    );
    assert!(
        m.z().abs() < 4.0,
        "measured {} vs exact {}: z = {}",
        m.measured,
        m.exact,
        m.z()
    );
}

#[test]
fn fpr_h3_k4_b12_w64_n2000() {
    fpr(&h3_k4_b12_w64(), 2000, 200_000, 1);
}

#[test]
fn fpr_crc_k3_b6_w32_n40() {
    fpr(&crc_k3_b6_w32(), 40, 100_000, 2);
}
