//! rust-hdl's simulator vs Verilator vs the golden model, on the same stimulus,
//! cycle for cycle: every handshake flag, accept cycle and response of the two
//! simulators must be identical, and both must pass the golden checker.

mod common;

use common::*;
use sim::checker::Checker;
use sim::harness::{compare_image, golden_op, CoreImage, GoldenImage};
use sim::rusthdl::RustHdlCore;
use sim::{StreamOutput, Traffic, TrafficShape};

fn three_way(spec: &hdl::CoreConfig, ops: usize, seed: u64) {
    let verilated = fresh(spec);
    let mut vcore = verilated.core;
    let mut rcore = RustHdlCore::new_like_verilated(spec, &vcore.timing).unwrap();
    assert_eq!(vcore.cycle(), rcore.cycle(), "both start after the same reset");
    let mut golden = golden::PartitionedFilter::new(spec.params);
    let mut traffic = Traffic::new(TrafficShape::stress(spec.params.key_bits), seed);
    // Clears must occur in short runs too.
    let mut requests = Vec::new();
    let mut gaps = Vec::new();
    for i in 0..ops {
        let (mut r, g) = traffic.next_request();
        if i == ops / 3 {
            r.op = 2;
        }
        requests.push(r);
        gaps.push(g);
    }
    let hits: Vec<bool> = requests.iter().map(|r| golden.apply(golden_op(r)).unwrap()).collect();
    let mut items = Vec::new();
    for r in &requests {
        sim::core::push_request(&mut items, r, spec.params.key_bits);
    }
    let clears = requests.iter().filter(|r| r.op == 2).count();
    let cycles = 3 * ops + (clears + 1) * (vcore.timing.clear_cycles as usize) + 200;
    let ready: Vec<u8> = (0..cycles).map(|_| traffic.next_ready() as u8).collect();

    let mut vout = StreamOutput::default();
    vcore.stream(&items, &gaps, &ready, ops, &mut vout).unwrap();
    let mut rout = StreamOutput::default();
    rcore.stream(&requests, &gaps, &ready, ops, &mut rout);
    assert_eq!(vout.accepted, ops, "Verilator accepted every request");
    assert_eq!(vout.n_responses, ops, "Verilator answered every request");

    // rust-hdl vs Verilator, cycle for cycle.
    assert_eq!(vout.start_cycle, rout.start_cycle);
    assert_eq!(vout.cycles, rout.cycles, "run lengths differ");
    if let Some(c) = (0..vout.flags.len()).find(|&c| vout.flags[c] != rout.flags[c]) {
        panic!(
            "{}: cycle {}: Verilator flags {:04b}, rust-hdl {:04b} (bit0 req_valid, bit1 req_ready, bit2 resp_valid, bit3 resp_ready)",
            spec.label(),
            vout.start_cycle + c as u64,
            vout.flags[c],
            rout.flags[c]
        );
    }
    assert_eq!(vout.accept_cycle, rout.accept_cycle);
    for i in 0..ops {
        assert_eq!(vout.response(i), rout.response(i), "{}: response {i}", spec.label());
    }

    // Each against golden and the documented timing.
    for (name, out) in [("Verilator", &vout), ("rust-hdl", &rout)] {
        let mut checker = Checker::new(vcore.timing);
        checker.check(&requests, &hits, out);
        assert_eq!(checker.mismatches, 0, "{name} vs golden: {:?}", checker.first);
        assert_eq!(checker.responses, ops as u64);
    }

    // Images and fills through both readback ports.
    let settle = vcore.timing.clear_cycles as u64 + 10;
    vcore.idle(settle).unwrap();
    rcore.idle(settle);
    let start = vcore.cycle();
    let (vbanks, errors) = vcore.read_image().unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    let vfills = vcore.read_fills().unwrap();
    let rbanks = rcore.read_image(vcore.timing.readback_latency);
    let rfills = rcore.read_fills();
    assert_eq!(vbanks, rbanks, "{}: images differ", spec.label());
    assert_eq!(vfills, rfills, "{}: fills differ", spec.label());
    let mut checker = Checker::new(vcore.timing);
    let image = CoreImage { banks: vbanks, fills: vfills, readback_errors: vec![], start_cycle: start, fill_cycle: start, end_cycle: start };
    compare_image(&mut checker, &image, &GoldenImage::of(&golden), vcore.timing.readback_latency);
    assert_eq!(checker.mismatches, 0, "image vs golden: {:?}", checker.first);
    assert!(golden.fill().iter().any(|&f| f > 0), "the run left bits set");
}

#[test]
fn three_way_crc_k3_b6_w32() {
    three_way(&crc_k3_b6_w32(), 1500, 11);
}

#[test]
fn three_way_h3_k1_b6_w128() {
    three_way(&h3_k1_b6_w128(), 1500, 12);
}

#[test]
fn three_way_h3_k4_b12_w64() {
    three_way(&h3_k4_b12_w64(), 400, 13);
}
