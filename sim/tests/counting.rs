//! The counting core (counter_bits > 1, contract §7) vs the golden counting filter:
//! stress traffic with deletes and counter writes, every cycle checked, counter images
//! compared at checkpoints, property tests, and the teeth (a core whose deletes are not
//! forwarded is caught).

mod common;

use common::*;
use sim::traffic::ReadyPattern;
use sim::{RunOptions, TrafficShape};

fn list(m: &[sim::Mismatch]) -> String {
    m.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("\n")
}

fn stress(spec: &hdl::CoreConfig, shape: TrafficShape, ops: u64, seed: u64, checkpoint_every: u64) -> sim::RunReport {
    let mut cosim = fresh(spec);
    let mut opts = RunOptions::stress(ops, spec.params.key_bits, seed);
    opts.shape = shape;
    opts.checkpoint_every = checkpoint_every;
    opts.batch = 4096;
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{}: first mismatches:\n{}", spec.label(), list(&r.first_mismatches));
    assert_eq!(r.ops, ops);
    assert_eq!(r.responses + r.resets.responses_lost, ops, "{}", r.resets);
    r
}

#[test]
fn crc_k3_b6_w32_c2_stress_meets_saturation_and_deletes_of_absent_keys() {
    let spec = crc_k3_b6_w32_c2();
    let shape = TrafficShape::stress_for(32, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 40_000, 2, 5_000);
    let e = r.counting;
    eprintln!("{}: {e}", spec.label());
    assert!(e.deletes > 5_000, "{e}");
    assert!(e.inserts_reaching_saturation > 100 && e.inserts_at_saturation > 100, "{e}");
    assert!(e.deletes_of_absent > 100 && e.deletes_after_saturation > 100 && e.deletes_to_zero > 100, "{e}");
    assert!(r.readbacks_checked > 1000, "{} readbacks", r.readbacks_checked);
}

#[test]
fn h3_k4_b12_w64_c4_stress() {
    let spec = h3_k4_b12_w64_c4();
    let shape = TrafficShape::stress_for(64, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 60_000, 1, 20_000);
    eprintln!("{}: {}", spec.label(), r.counting);
    assert!(r.counting.deletes_carried_out > 1000 && r.counting.deletes_of_absent > 1000, "{}", r.counting);
}

#[test]
fn h3_k1_b6_w128_c8_stress() {
    let spec = h3_k1_b6_w128_c8();
    let shape = TrafficShape::stress_for(128, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 40_000, 3, 5_000);
    eprintln!("{}: {}", spec.label(), r.counting);
    assert!(r.counting.deletes_carried_out > 1000 && r.counting.deletes_to_zero > 100, "{}", r.counting);
}

#[test]
fn crc_k3_b6_w32_c2_reset_heavy() {
    let spec = crc_k3_b6_w32_c2();
    let shape = TrafficShape::reset_heavy(32, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 20_000, 7, 4_000);
    assert!(r.resets.complete(), "{}", r.resets);
}

#[test]
fn h3_k4_b12_w64_c4_saturating_traffic_one_operation_per_cycle() {
    let spec = h3_k4_b12_w64_c4();
    let r = stress(&spec, TrafficShape::saturating(64), 50_000, 9, 0);
    assert_eq!(r.traffic_cycles, r.ops, "ops/cycle {}", r.ops_per_cycle());
    assert!(r.counting.deletes > 10_000, "{}", r.counting);
}

#[test]
fn nodelfwd_crc_k3_b6_w32_c2_caught() {
    let mut spec = crc_k3_b6_w32_c2();
    spec.test_switches.disable_delete_forwarding = true;
    let mut cosim = fresh(&spec);
    cosim.drain(&mut ReadyPattern::default()).unwrap();
    let key = 0x1234_5678u128;
    // Insert, delete, query, back to back: only the delete's forwarded counter says
    // the key is gone.
    let requests = [
        sim::Request { op: 1, key, tag: 0 },
        sim::Request { op: 3, key, tag: 1 },
        sim::Request { op: 0, key, tag: 2 },
    ];
    cosim.run_requests(&requests, &[0, 0, 0], &mut ReadyPattern::default()).unwrap();
    let r = cosim.report();
    let first = r.first_mismatch().expect("a core that does not forward a delete's counter must be caught");
    assert_eq!(first.op_index, Some(2), "{first}");
    assert!(first.what.contains("hit 1") && first.what.contains("expected (hit 0"), "{first}");

    // The same sequence on the correct core passes.
    let mut good = fresh(&crc_k3_b6_w32_c2());
    good.run_requests(&requests, &[0, 0, 0], &mut ReadyPattern::default()).unwrap();
    assert_eq!(good.report().mismatches, 0, "{}", list(&good.report().first_mismatches));

    // And random traffic catches it too.
    let mut cosim = fresh(&spec);
    let shape = TrafficShape::stress_for(32, &hdl::Timing::of(&spec.params));
    let mut opts = RunOptions::stress(5_000, 32, 21);
    opts.shape = shape;
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    assert!(r.mismatches > 0);
}
