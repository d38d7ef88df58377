//! The scrub (docs/contract.md §5.2) co-simulated: every cycle of every port against the
//! golden model and its scrub reference (golden::scrub), with scrubs requested at random
//! beside stress traffic (inserts, deletes, bit writes, clears and resets during scrubs:
//! no bank may be reported). The test switch
//! `disable_scrub_correction` (changes at addresses the scrub has already read not
//! counted) must be caught.

mod common;

use common::*;
use sim::{CoSim, RunOptions, TrafficShape};

/// A run of stress traffic with a scrub requested about every 64 cycles.
fn scrubbed_run(cosim: &mut CoSim, ops: u64, seed: u64) -> sim::RunReport {
    let params = cosim.core.config.params;
    let mut opts = RunOptions::stress(ops, params.key_bits, seed);
    opts.shape = TrafficShape::stress_for(params.key_bits, &cosim.core.timing)
        .for_counters(params.counter_bits)
        .with_scrubs(1.0 / 64.0);
    opts.batch = 4096;
    cosim.run_inline(&opts, &mut |_, _| {}).unwrap()
}

fn assert_clean(r: &sim::RunReport, what: &str) {
    assert_eq!(
        r.mismatches, 0,
        "{what}: {} mismatches, first: {:?}",
        r.mismatches, r.first_mismatches
    );
}

#[test]
fn scrubs_beside_stress_traffic_report_nothing() {
    for spec in [crc_k3_b6_w32(), crc_k3_b6_w32_c2()] {
        let mut cosim = fresh(&spec);
        let r = scrubbed_run(&mut cosim, 40_000, 7);
        assert_clean(&r, &spec.label());
        let s = r.scrubs;
        println!("{}: {} cycles checked; {s}", spec.label(), r.cycles_checked);
        assert!(
            s.finished >= 50,
            "{}: only {} scrubs finished",
            spec.label(),
            s.finished
        );
        assert!(
            s.ops_during > 1000 && s.bit_writes_during > 20 && s.clears_during > 0,
            "{}: the scrubs met too little: {s}",
            spec.label()
        );
        assert!(
            s.cut_by_reset > 0,
            "{}: no scrub was cut by a reset: {s}",
            spec.label()
        );
        assert_eq!(s.reporting, 0);
    }
}

#[test]
fn scrub_without_correction_is_caught() {
    let mut spec = crc_k3_b6_w32();
    spec.test_switches.disable_scrub_correction = true;
    let mut cosim = fresh(&spec);
    let r = scrubbed_run(&mut cosim, 20_000, 7);
    println!(
        "{}: {} mismatches, first: {:?}",
        spec.label(),
        r.mismatches,
        r.first_mismatch()
    );
    assert!(
        r.mismatches > 0,
        "the broken scrub was not caught: {}",
        r.scrubs
    );
    assert!(r
        .first_mismatch()
        .is_some_and(|m| m.what.starts_with("scrub_mismatch is")));
}
