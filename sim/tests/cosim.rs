//! Verilated core vs golden model: stress traffic with every cycle checked,
//! image and fill checkpoints, property tests over operation sequences.

mod common;

use common::*;
use proptest::prelude::*;
use sim::traffic::ReadyPattern;
use sim::{CoSim, RunOptions, TrafficShape};

fn stress(spec: &hdl::CoreConfig, ops: u64, seed: u64, checkpoint_every: u64) {
    let mut cosim = fresh(spec);
    let mut opts = RunOptions::stress(ops, spec.params.key_bits, seed);
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
    // Every operation was answered, or lost to a reset (the checker knows which).
    assert_eq!(r.responses + r.resets.responses_lost, ops, "{}", r.resets);
    let expected_checks = if checkpoint_every > 0 {
        ops.div_ceil(checkpoint_every)
    } else {
        1
    } as u32;
    assert_eq!(r.image_checks, expected_checks, "image checks");
    // The traffic really exercised hits and misses.
    assert!(
        r.query_hits > 0 && r.query_hits < r.queries,
        "{} hits of {} queries",
        r.query_hits,
        r.queries
    );
}

#[test]
fn h3_k4_b12_w64_stress() {
    stress(&h3_k4_b12_w64(), 60_000, 1, 20_000);
}

#[test]
fn crc_k3_b6_w32_stress() {
    stress(&crc_k3_b6_w32(), 40_000, 2, 5_000);
}

#[test]
fn h3_k1_b6_w128_stress() {
    stress(&h3_k1_b6_w128(), 40_000, 3, 5_000);
}

#[test]
fn crc_k8_b16_w128_stress() {
    stress(&crc_k8_b16_w128(), 30_000, 4, 15_000);
}

/// The Feistel family: one network, its request line's two cycles in front of the
/// stages (latency 9), one block (k b <= W) and three (k b > W).
#[test]
fn feistel_k4_b12_w64_stress() {
    stress(&feistel_k4_b12_w64(), 40_000, 8, 10_000);
}

#[test]
fn feistel_k7_b13_w32_stress() {
    stress(&feistel_k7_b13_w32(), 30_000, 9, 10_000);
}

#[test]
fn spn_k4_b12_w64_stress() {
    stress(&spn_k4_b12_w64(), 40_000, 5, 10_000);
}

#[test]
fn spn_k7_b13_w32_stress() {
    stress(&spn_k7_b13_w32(), 30_000, 6, 10_000);
}

#[test]
fn spn_k12_b12_w128_stress() {
    stress(&spn_k12_b12_w128(), 20_000, 7, 10_000);
}

#[test]
fn saturating_traffic_sustains_one_operation_per_cycle() {
    let spec = h3_k4_b12_w64();
    let mut cosim = fresh(&spec);
    let mut opts = RunOptions::stress(50_000, 64, 9);
    opts.shape = TrafficShape::saturating(64);
    let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
    assert_eq!(r.mismatches, 0, "{}", list(&r.first_mismatches));
    // Every cycle of traffic accepted a request: not one bubble.
    assert_eq!(r.traffic_cycles, r.ops, "ops/cycle {}", r.ops_per_cycle());
}

/// One operation of a property-test sequence: (op code, key choice, gap).
fn op_strategy() -> impl Strategy<Value = (u8, u8, u8)> {
    (
        prop_oneof![8 => Just(0u8), 8 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        any::<u8>(),
        prop_oneof![6 => Just(0u8), 1 => 1u8..5],
    )
}

fn property(spec: hdl::CoreConfig, cases: u32) {
    // Keys from a pool of 6 (so most operations hit hazards and repeats) plus edge keys.
    property_of_sequences(spec, cases, op_strategy(), 6);
}

#[test]
fn property_h3_k4_b12_w64() {
    property(h3_k4_b12_w64(), 24);
}

#[test]
fn property_crc_k3_b6_w32() {
    property(crc_k3_b6_w32(), 48);
}

#[test]
fn property_h3_k1_b6_w128() {
    property(h3_k1_b6_w128(), 48);
}

#[test]
fn property_crc_k8_b16_w128() {
    property(crc_k8_b16_w128(), 8);
}

#[test]
fn zero_power_up_h3_k4_b12_w64_starts_empty_without_a_clear() {
    // The FPGA flow: block RAM and flip-flops power up 0, only reset is applied.
    let core = sim::VerilatedCore::build_with(&h3_k4_b12_w64(), false, sim::PowerUp::Zero).unwrap();
    let mut cosim = CoSim::from_core(core).unwrap();
    let mut consumer = ReadyPattern::default();
    assert_eq!(
        cosim.check_image(&mut consumer).unwrap(),
        0,
        "{:?}",
        cosim.report().first_mismatches
    );
    let r = cosim
        .run(&RunOptions::stress(20_000, 64, 5), &mut |_, _| {})
        .unwrap();
    assert_eq!(r.mismatches, 0, "{}", list(&r.first_mismatches));
}

/// Long soak over every test configuration (minutes):
/// `cargo test -p sim --release --test cosim -- --ignored soak`
#[test]
#[ignore]
fn soak_all_configurations_2m_ops() {
    for spec in [
        h3_k4_b12_w64(),
        crc_k3_b6_w32(),
        h3_k1_b6_w128(),
        crc_k8_b16_w128(),
    ] {
        let mut cosim = fresh(&spec);
        let mut opts = RunOptions::stress(2_000_000, spec.params.key_bits, 77);
        opts.shape = TrafficShape::stress_for(spec.params.key_bits, &cosim.core.timing);
        opts.checkpoint_every = 500_000;
        let r = cosim.run(&opts, &mut |_, _| {}).unwrap();
        assert_eq!(
            r.mismatches,
            0,
            "{}: {}",
            spec.label(),
            list(&r.first_mismatches)
        );
        assert_eq!((r.ops, r.image_checks), (2_000_000, 4));
        println!(
            "{}: {} ops, {} cycles, {:.2} M ops/s",
            spec.label(),
            r.ops,
            r.traffic_cycles,
            r.ops_per_second() / 1e6
        );
    }
}

#[test]
fn inline_run_h3_k4_b12_w64_matches_the_two_thread_run() {
    // The same traffic, simulated and checked on one thread or on two: the same
    // responses, hits and image checks.
    let spec = h3_k4_b12_w64();
    let mut opts = RunOptions::stress(30_000, 64, 12);
    opts.checkpoint_every = 10_000;
    opts.batch = 4096;
    let threaded = fresh(&spec).run(&opts, &mut |_, _| {}).unwrap();
    let inline = fresh(&spec).run_inline(&opts, &mut |_, _| {}).unwrap();
    for r in [&threaded, &inline] {
        assert_eq!(r.mismatches, 0, "{}", list(&r.first_mismatches));
        assert_eq!(r.image_checks, 3);
    }
    assert_eq!(
        (
            inline.ops,
            inline.traffic_cycles,
            inline.queries,
            inline.query_hits
        ),
        (
            threaded.ops,
            threaded.traffic_cycles,
            threaded.queries,
            threaded.query_hits
        )
    );
}

#[test]
fn sharded_crc_k3_b6_w32_three_shards_split_the_operations() {
    let spec = crc_k3_b6_w32();
    let first = sim::VerilatedCore::build(&spec, false).unwrap();
    let mut cosims = vec![CoSim::from_core(first.new_instance().unwrap()).unwrap()];
    cosims.push(CoSim::from_core(first.new_instance().unwrap()).unwrap());
    cosims.push(CoSim::from_core(first).unwrap());
    let mut opts = RunOptions::stress(20_000, 32, 30);
    opts.checkpoint_every = 4_000;
    let mut last = 0;
    let (reports, seconds) = sim::run_sharded(&mut cosims, &opts, &mut |done, total| {
        assert!(done >= last && done <= total);
        last = done;
    })
    .unwrap();
    assert!(seconds > 0.0);
    let ops: Vec<u64> = reports.iter().map(|r| r.ops).collect();
    assert_eq!(ops, [6_667, 6_667, 6_666]);
    for r in &reports {
        assert_eq!(r.mismatches, 0, "{}", list(&r.first_mismatches));
        assert_eq!(r.responses + r.resets.responses_lost, r.ops);
        assert_eq!(
            r.image_checks, 2,
            "each shard checks its image at its own checkpoints and at its end"
        );
    }
    // Different seeds: the shards did not run the same traffic.
    assert_ne!(reports[0].query_hits, reports[1].query_hits);
}
