//! The counting core (counter_bits > 1, contract §7) vs the golden counting filter:
//! stress traffic with deletes and counter writes, every cycle checked, counter images
//! compared at checkpoints, property tests, and the teeth (a core whose deletes are not
//! forwarded is caught).

mod common;

use common::*;
use proptest::prelude::*;
use sim::traffic::ReadyPattern;
use sim::{RunOptions, TrafficShape};

fn stress(
    spec: &hdl::CoreConfig,
    shape: TrafficShape,
    ops: u64,
    seed: u64,
    checkpoint_every: u64,
) -> sim::RunReport {
    let mut cosim = fresh(spec);
    let mut opts = RunOptions::stress(ops, spec.params.key_bits, seed);
    opts.shape = shape;
    opts.checkpoint_every = checkpoint_every;
    opts.batch = 4096;
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(
        r.mismatches,
        0,
        "{}: first mismatches:\n{}",
        spec.label(),
        list(&r.first_mismatches)
    );
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
    assert_counting_situations_met(&e, &spec.label());
    assert!(
        r.readbacks_checked > 1000,
        "{} readbacks",
        r.readbacks_checked
    );
}

#[test]
fn h3_k4_b12_w64_c4_stress() {
    let spec = h3_k4_b12_w64_c4();
    let shape = TrafficShape::stress_for(64, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 60_000, 1, 20_000);
    eprintln!("{}: {}", spec.label(), r.counting);
    assert!(
        r.counting.deletes_carried_out > 1000 && r.counting.deletes_of_absent > 1000,
        "{}",
        r.counting
    );
}

/// The Feistel family's request line in front of a counting core: deletes, saturation
/// and absent keys on small banks.
#[test]
fn feistel_k3_b6_w32_c2_stress_meets_saturation_and_deletes_of_absent_keys() {
    let spec = hdl::CoreConfig::from(
        hdl::CoreParams::new(3, 6, 32, hdl::HashFamily::Feistel, 0x1234_5678_9abc_def0)
            .unwrap()
            .with_counter_bits(2)
            .unwrap(),
    );
    let shape = TrafficShape::stress_for(32, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 30_000, 3, 5_000);
    let e = r.counting;
    eprintln!("{}: {e}", spec.label());
    assert!(e.deletes > 3_000, "{e}");
    assert_counting_situations_met(&e, &spec.label());
}

#[test]
fn h3_k1_b6_w128_c8_stress() {
    let spec = h3_k1_b6_w128_c8();
    let shape = TrafficShape::stress_for(128, &hdl::Timing::of(&spec.params));
    let r = stress(&spec, shape, 40_000, 3, 5_000);
    eprintln!("{}: {}", spec.label(), r.counting);
    assert!(
        r.counting.deletes_carried_out > 1000 && r.counting.deletes_to_zero > 100,
        "{}",
        r.counting
    );
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
    cosim
        .run_requests(&requests, &[0, 0, 0], &mut ReadyPattern::default())
        .unwrap();
    let r = cosim.report();
    let first = r
        .first_mismatch()
        .expect("a core that does not forward a delete's counter must be caught");
    assert_eq!(first.op_index, Some(2), "{first}");
    assert!(
        first.what.contains("hit 1") && first.what.contains("expected (hit 0"),
        "{first}"
    );

    // The same sequence on the correct core passes.
    let mut good = fresh(&crc_k3_b6_w32_c2());
    good.run_requests(&requests, &[0, 0, 0], &mut ReadyPattern::default())
        .unwrap();
    assert_eq!(
        good.report().mismatches,
        0,
        "{}",
        list(&good.report().first_mismatches)
    );

    // And random traffic catches it too.
    let mut cosim = fresh(&spec);
    let shape = TrafficShape::stress_for(32, &hdl::Timing::of(&spec.params));
    let mut opts = RunOptions::stress(5_000, 32, 21);
    opts.shape = shape;
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    assert!(r.mismatches > 0);
}

/// One operation of a property-test sequence: (op code, key choice, gap); as many
/// deletes as inserts.
fn op_strategy() -> impl Strategy<Value = (u8, u8, u8)> {
    (
        prop_oneof![4 => Just(0u8), 8 => Just(1u8), 1 => Just(2u8), 8 => Just(3u8)],
        any::<u8>(),
        prop_oneof![6 => Just(0u8), 1 => 1u8..5],
    )
}

fn property(spec: hdl::CoreConfig, cases: u32) {
    // Keys from a pool of 5 plus edge keys, so that the same counters are incremented
    // and decremented back to back, saturate, and are deleted from again.
    property_of_sequences(spec, cases, op_strategy(), 5);
}

#[test]
fn property_crc_k3_b6_w32_c2() {
    property(crc_k3_b6_w32_c2(), 48);
}

#[test]
fn property_h3_k4_b12_w64_c4() {
    property(h3_k4_b12_w64_c4(), 16);
}

#[test]
fn property_h3_k1_b6_w128_c8() {
    property(h3_k1_b6_w128_c8(), 24);
}

/// A counting image (saturated counters included) preloaded into the core is read
/// back counter by counter, then traffic runs on it with the golden model starting
/// from the same image.
#[test]
fn preloaded_crc_k3_b6_w32_c2_image_reads_back_and_runs() {
    let base = crc_k3_b6_w32_c2();
    let mut g = golden::CountingFilter::from_config(base.params).unwrap();
    for key in 0..150u128 {
        g.insert(key.wrapping_mul(0x9e37_79b9) & 0xffff_ffff)
            .unwrap();
    }
    assert!(
        g.saturated().iter().all(|&s| s > 0) && g.fill().iter().all(|&f| f < 64),
        "{:?} {:?}",
        g.saturated(),
        g.fill()
    );
    let dir = std::env::temp_dir().join(format!("sim-counting-preload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    g.export_image(&dir).unwrap();
    let spec = hdl::CoreConfig {
        preload: Some(dir.clone()),
        ..base
    };
    let core = sim::VerilatedCore::build(&spec, false).unwrap();
    let mut cosim = sim::CoSim::from_core(core).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(cosim.golden(), &g);
    let before = cosim.report().readbacks_checked;
    assert_eq!(
        cosim.check_image(&mut ReadyPattern::default()).unwrap(),
        0,
        "{}",
        list(&cosim.report().first_mismatches)
    );
    assert_eq!(cosim.report().readbacks_checked - before, 3 * 64);
    let mut opts = RunOptions::stress(10_000, 32, 5);
    opts.shape = TrafficShape::stress_for(32, &hdl::Timing::of(&spec.params));
    opts.checkpoint_every = 2_500;
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{}", list(&r.first_mismatches));
}
