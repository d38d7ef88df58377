//! rust-hdl's simulator vs Verilator vs the golden model, on the same stimulus,
//! cycle for cycle: every handshake flag, every side output (busy, readbacks,
//! fill_count, the response payload), accept cycle and response of the two
//! simulators must be identical, and both must pass the golden checker. The
//! stimulus has everything the streaming co-simulation drives: bursts, stalls,
//! clears, readbacks, a random fill_bank and resets at random times.

mod common;

use common::*;
use sim::checker::Checker;
use sim::rusthdl::RustHdlCore;
use sim::{SideTraffic, StreamOutput, Traffic, TrafficShape};

fn three_way(spec: &hdl::CoreConfig, ops: usize, seed: u64, min_resets: u64) {
    let verilated = fresh(spec);
    let mut vcore = verilated.core;
    let mut rcore = RustHdlCore::new(spec).unwrap();
    assert_eq!(
        vcore.cycle(),
        rcore.cycle(),
        "both start after the same reset"
    );
    let timing = vcore.timing;
    let shape = TrafficShape::reset_heavy(spec.params.key_bits, &timing);
    let mut traffic = Traffic::new(shape.clone(), seed);
    let mut side = SideTraffic::new(&shape, seed, &spec.params);
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
    let mut items = Vec::new();
    for r in &requests {
        sim::core::push_request(&mut items, r, spec.params.key_bits);
    }
    let clears = requests.iter().filter(|r| r.op == 2).count();
    let cycles = 4 * ops + (clears + 1) * (timing.clear_cycles as usize) + 200;
    let ready: Vec<u8> = (0..cycles).map(|_| traffic.next_ready() as u8).collect();
    let side_in: Vec<u64> = (0..cycles).map(|_| side.next_inputs()).collect();

    let mut vout = StreamOutput::default();
    vcore
        .stream(&items, &gaps, &ready, &side_in, usize::MAX, &mut vout)
        .unwrap();
    let mut rout = StreamOutput::default();
    rcore.stream(&requests, &gaps, &ready, &side_in, usize::MAX, &mut rout);

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
    // The response payload and rb_data mean nothing while their valid is low
    // (the Verilog's FIFO shows whatever its entries hold, the model 0).
    let meaningful = |flags: u8, so: u64| {
        let mut so = so;
        if flags & 4 == 0 {
            so &= !(0x1ff << 3);
        }
        if so & 2 == 0 {
            so &= !4;
        }
        so
    };
    if let Some(c) = (0..vout.side_out.len()).find(|&c| {
        meaningful(vout.flags[c], vout.side_out[c]) != meaningful(rout.flags[c], rout.side_out[c])
    }) {
        panic!(
            "{}: cycle {}: Verilator side outputs {:#x}, rust-hdl {:#x} (side::OUTPUTS)",
            spec.label(),
            vout.start_cycle + c as u64,
            vout.side_out[c],
            rout.side_out[c]
        );
    }
    assert_eq!(vout.accept_cycle, rout.accept_cycle);
    assert_eq!(vout.n_responses, rout.n_responses);
    for i in 0..vout.n_responses {
        assert_eq!(
            vout.response(i),
            rout.response(i),
            "{}: response {i}",
            spec.label()
        );
    }

    // Each against golden and the documented timing, every port, every cycle.
    let mut resets = None;
    for (name, out) in [("Verilator", &vout), ("rust-hdl", &rout)] {
        let mut checker = Checker::new(timing, spec.params, vcore.last_reset);
        checker.check_stream(&requests[..out.accepted], &side_in, out);
        assert_eq!(
            checker.mismatches, 0,
            "{name} vs golden: {:#?}",
            checker.first
        );
        assert!(
            checker.readbacks_checked > 10,
            "{name}: {} readbacks checked",
            checker.readbacks_checked
        );
        resets = Some(checker.resets);
    }
    let resets = resets.unwrap();
    assert!(resets.resets >= min_resets, "{resets:?}");
}

#[test]
fn three_way_crc_k3_b6_w32() {
    three_way(&crc_k3_b6_w32(), 1500, 11, 10);
}

#[test]
fn three_way_h3_k1_b6_w128() {
    three_way(&h3_k1_b6_w128(), 1500, 12, 10);
}

#[test]
fn three_way_h3_k4_b12_w64() {
    three_way(&h3_k4_b12_w64(), 400, 13, 0);
}
