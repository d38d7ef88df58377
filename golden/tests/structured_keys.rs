//! The structured-key suite (golden::structured, docs/theory.md "Structured
//! key sets") at test scale: 32 seeds, every key-set shape, every query
//! shape, half and full design load, 20,000 queries per case, 99 %
//! Clopper-Pearson intervals.
//!
//! The SPN and Feistel families must keep the theory on every shape: no case significantly
//! above 1.5x the exact rate, no group mean significantly more than 5 % from
//! it, no bank fill or item estimate more than 5 standard deviations out.
//! H3 and CRC must fail where docs/theory.md says they do, so that the suite
//! is shown to see what it is meant to see. `bloom fpr check` runs the same
//! suite at full scale (100,000 queries per case).

use golden::structured::{run_family, Case, QueryShape, SetShape, SuiteOptions, Summary};
use golden::{CoreParams, HashFamily};

const CONFIDENCE: f64 = 0.99;

fn suite(
    family: HashFamily,
    k: u32,
    b: u32,
    w: u32,
    seeds: u64,
    queries: usize,
) -> (Vec<Case>, Summary) {
    let options = SuiteOptions {
        seeds,
        queries,
        ..SuiteOptions::full(k, b, w)
    };
    let cfg = CoreParams::new(k, b, w, family, 0).unwrap();
    let cases = run_family(&options, &cfg).unwrap();
    let summary = Summary::of(&cases).unwrap();
    (cases, summary)
}

fn assert_keeps_the_theory(family: HashFamily, k: u32, b: u32, w: u32, seeds: u64) {
    assert_keeps_the_theory_with(family, k, b, w, seeds, 20_000);
}

fn assert_keeps_the_theory_with(
    family: HashFamily,
    k: u32,
    b: u32,
    w: u32,
    seeds: u64,
    queries: usize,
) {
    let (cases, s) = suite(family, k, b, w, seeds, queries);
    let label = format!("{family} k={k} b={b} W={w}");
    assert_eq!(
        cases.len() as u64,
        seeds * 5 * 3 * 2,
        "{label}: every set, query shape and load"
    );
    let above: Vec<String> = cases
        .iter()
        .filter(|c| c.significantly_above(1.5))
        .map(|c| c.to_string())
        .collect();
    assert!(above.is_empty(), "{label}: cases above 1.5x: {above:#?}");
    for g in &s.groups {
        let (low, high) = g.pooled_interval(CONFIDENCE);
        assert!(
            low <= 1.05 && high >= 0.95,
            "{label}: {} set, {} queries, load {}: mean ratio {:.3}, pooled interval {low:.3}..{high:.3}",
            g.set.name(),
            g.query.name(),
            g.load,
            g.mean_ratio
        );
    }
    assert!(
        s.worst_fill_z <= 5.0,
        "{label}: a fill {:.1} sd out",
        s.worst_fill_z
    );
    assert!(
        s.worst_items_z <= 5.0,
        "{label}: an estimate {:.1} se out",
        s.worst_items_z
    );
}

#[test]
fn spn_keeps_the_theory_on_structured_keys_default_configuration() {
    assert_keeps_the_theory(HashFamily::Spn, 4, 12, 64, 32);
}

#[test]
fn spn_keeps_the_theory_on_structured_keys_k7_b13_w32() {
    assert_keeps_the_theory(HashFamily::Spn, 7, 13, 32, 32);
}

#[test]
fn feistel_keeps_the_theory_on_structured_keys_default_configuration() {
    assert_keeps_the_theory(HashFamily::Feistel, 4, 12, 64, 32);
}

/// At k = 7, b = 13 the exact rate at half load is 1.8e-4: 20,000 queries expect
/// 3.6 false positives per case, too few for the 1.5x test (one case of the 960 drew
/// 13, 3.5x, with seed 18, which 2,000,000 queries put at 1.06x); this runs the full
/// scale of `bloom fpr check`, 100,000 queries per case.
#[test]
fn feistel_keeps_the_theory_on_structured_keys_k7_b13_w32() {
    assert_keeps_the_theory_with(HashFamily::Feistel, 7, 13, 32, 32, 100_000);
}

#[test]
fn spn_keeps_the_theory_on_structured_keys_w128() {
    assert_keeps_the_theory(HashFamily::Spn, 4, 12, 128, 16);
}

/// The suite sees the linear families' failures (docs/theory.md): H3 is far
/// above the theory on some seeds and its fills depart; CRC answers no
/// false positive at all for the next keys after consecutive ones, whatever
/// the seed, and is above twice the theory on strided keys.
#[test]
fn the_suite_sees_where_h3_and_crc_fail() {
    let (_, h3) = suite(HashFamily::H3, 4, 12, 64, 32, 20_000);
    assert!(h3.above_2 > 0, "h3: no case above 2x");
    assert!(h3.worst_fill_z > 20.0, "h3: fills {:.1}", h3.worst_fill_z);
    let (crc_cases, crc) = suite(HashFamily::Crc, 4, 12, 64, 32, 20_000);
    let sequential_next: Vec<&Case> = crc_cases
        .iter()
        .filter(|c| c.set == SetShape::Sequential && c.query == QueryShape::Next)
        .collect();
    assert_eq!(sequential_next.len(), 64);
    assert!(sequential_next.iter().all(|c| c.false_positives == 0));
    assert!(crc
        .groups
        .iter()
        .any(|g| g.set == SetShape::Strided && g.mean_ratio > 2.0));
    assert!(
        crc.worst_fill_z > 20.0,
        "crc: fills {:.1}",
        crc.worst_fill_z
    );
}
