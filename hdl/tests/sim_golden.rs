//! The core in rust-hdl's simulator against the golden model (short runs: the simulator
//! does tens of thousands of cycles a second). Every response, its exact latency, the
//! readbacks, fill counters, busy/req_ready during clears and the final memory image
//! are checked (see common/mod.rs).

mod common;

use common::*;
use golden::PartitionedFilter;
use hdl::HashFamily::{Crc, H3};
use hdl::TestSwitches;

fn keys_sharing_bank_address(cfg: &hdl::CoreConfig, bank: usize, rng: &mut Rng) -> (u128, u128) {
    let g = PartitionedFilter::new(golden_config(cfg));
    let mask = (1u128 << cfg.key_bits()) - 1;
    let mut seen = std::collections::HashMap::new();
    loop {
        let key = rng.next() as u128 & mask;
        let a = g.addresses(key).unwrap();
        if let Some(other) = seen.insert(a[bank], key) {
            if other != key && g.addresses(other).unwrap() != a {
                return (other, key);
            }
        }
    }
}

fn hazard_script(cfg: &hdl::CoreConfig, seed: u64) -> Vec<Request> {
    let mut rng = Rng::new(seed);
    let (x, y) = keys_sharing_bank_address(cfg, 0, &mut rng);
    let ins = |key| Request { op: 1, key };
    let qry = |key| Request { op: 0, key };
    vec![
        qry(x), ins(x), qry(x), ins(x), ins(x), qry(x), // back to back, same key
        ins(y), qry(y), qry(x), ins(y),                 // same bank-0 address, other key
        Request { op: 3, key: y }, qry(y),
        ins(x), ins(y), ins(x), qry(y), qry(x),
    ]
}

#[test]
fn h3_k4_b6_w64_back_to_back_same_key_and_same_address() {
    let cfg = config(4, 6, 64, H3, 0);
    let (run, mut sim) = run::<64>(&cfg, &hazard_script(&cfg, 7), Bench::full_rate());
    assert_eq!(run.responses, 17);
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn crc_k4_b6_w32_back_to_back_same_key_and_same_address() {
    let cfg = config(4, 6, 32, Crc, 99);
    let (run, mut sim) = run::<32>(&cfg, &hazard_script(&cfg, 8), Bench::full_rate());
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
#[should_panic(expected = "hit of request")]
fn h3_k4_b6_w64_without_forwarding_is_caught() {
    let mut cfg = config(4, 6, 64, H3, 0);
    cfg.test_switches = TestSwitches { disable_forwarding: true, perturb_seed_of_bank: None };
    run::<64>(&cfg, &hazard_script(&cfg, 7), Bench::full_rate());
}

#[test]
#[should_panic(expected = "image bit")]
fn h3_k4_b6_w64_perturbed_seed_is_caught() {
    let mut cfg = config(4, 6, 64, H3, 0);
    cfg.test_switches = TestSwitches { disable_forwarding: false, perturb_seed_of_bank: Some(2) };
    let mut rng = Rng::new(3);
    let requests = random_requests(&mut rng, 200, 64, 40, 0);
    let (run, mut sim) = run::<64>(&cfg, &requests, Bench::full_rate());
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn h3_k4_b6_w64_random_mix_full_rate_with_clears() {
    let cfg = config(4, 6, 64, H3, 0x1234);
    let mut rng = Rng::new(11);
    let requests = random_requests(&mut rng, 300, 64, 24, 120);
    let (run, mut sim) = run::<64>(&cfg, &requests, Bench::full_rate());
    eprintln!("{} responses in {} cycles", run.responses, run.cycles);
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn crc_k3_b6_w32_random_mix_backpressure_idle_readback() {
    let cfg = config(3, 6, 32, Crc, 5);
    let mut rng = Rng::new(12);
    let requests = random_requests(&mut rng, 250, 32, 24, 90);
    let bench = Bench { idle_percent: 20, backpressure_percent: 45, readback_percent: 10, seed: 3 };
    let (run, mut sim) = run::<32>(&cfg, &requests, bench);
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn crc_k10_b6_w128_random_mix_heavy_backpressure() {
    // k > 8: partitions 8.. take CRC bits [31:16].
    let cfg = config(10, 6, 128, Crc, u64::MAX);
    let mut rng = Rng::new(13);
    let requests = random_requests(&mut rng, 150, 128, 16, 0);
    let bench = Bench { idle_percent: 5, backpressure_percent: 80, readback_percent: 5, seed: 4 };
    let (run, mut sim) = run::<128>(&cfg, &requests, bench);
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn h3_k16_b7_w128_random_mix_full_rate() {
    let cfg = config(16, 7, 128, H3, 42);
    let mut rng = Rng::new(14);
    let requests = random_requests(&mut rng, 150, 128, 30, 0);
    let (run, mut sim) = run::<128>(&cfg, &requests, Bench::full_rate());
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn h3_k1_b12_w64_random_mix_default_bank_size() {
    let cfg = config(1, 12, 64, H3, 0);
    let mut rng = Rng::new(15);
    let requests = random_requests(&mut rng, 200, 64, 40, 0);
    let (run, _sim) = run::<64>(&cfg, &requests, Bench::full_rate());
    assert_eq!(run.responses, 200);
}

#[test]
fn h3_k1_b12_w64_fill_counter_every_cycle_across_255_and_511() {
    // The fill counter is two halves with a registered carry between them (partition.rs).
    // Back-to-back inserts of distinct keys (nearly all set a new bit) carry it across 256
    // and 512 while increments arrive every cycle; fill_count is compared in every cycle
    // with the golden count of the inserts accepted 7 or more cycles before (core.rs).
    let cfg = config(1, 12, 64, H3, 0);
    let mut sim = hdl::sim::CoreSim::<64>::new(hdl::verilog::build_core::<64>(&cfg).unwrap());
    let mut golden = PartitionedFilter::new(golden_config(&cfg));
    let mut rng = Rng::new(21);
    let reset = hdl::sim::CycleInputs { reset: true, ..Default::default() };
    sim.step(&reset);
    sim.step(&reset);
    // fill_after[i]: the golden count after the i-th accepted insert, accepted in cycle at[i].
    let (mut at, mut fill_after) = (Vec::new(), Vec::new());
    for _ in 0..720 {
        let cycle = sim.cycle;
        let inp = hdl::sim::CycleInputs {
            req_valid: at.len() < 700,
            req_op: 1,
            req_key: rng.next() as u128,
            resp_ready: true,
            ..Default::default()
        };
        let out = sim.step(&inp);
        let counted = at.iter().take_while(|&&t| t + hdl::LATENCY as u64 <= cycle).count();
        let want = if counted == 0 { 0 } else { fill_after[counted - 1] };
        assert_eq!(out.fill_count, want, "fill_count in cycle {cycle}");
        if inp.req_valid && out.req_ready {
            golden.apply(golden::Op::Insert(inp.req_key)).unwrap();
            at.push(cycle);
            fill_after.push(golden.fill()[0]);
        }
    }
    assert!(golden.fill()[0] > 512, "fill {} does not pass 512", golden.fill()[0]);
}

#[test]
fn h3_k2_b6_w64_preloaded_image_is_the_initial_state() {
    let cfg = config(2, 6, 64, H3, 77);
    let mut g = PartitionedFilter::new(golden_config(&cfg));
    let mut rng = Rng::new(16);
    for _ in 0..20 {
        g.insert(rng.next() as u128).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("hdl-preload-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    g.export_image(&dir).unwrap();
    let mut pre = cfg.clone();
    pre.preload = Some(dir.clone());
    let mut sim = hdl::sim::CoreSim::new(hdl::verilog::build_core::<64>(&pre).unwrap());
    let reset = hdl::sim::CycleInputs { reset: true, ..Default::default() };
    sim.step(&reset);
    sim.step(&reset);
    check_image(&mut sim, &g, &pre);
    let verilog = hdl::generate_core(&pre).unwrap().verilog;
    let ones: usize = g.fill().iter().map(|f| *f as usize).sum();
    assert_eq!(verilog.matches("] = 1'b1;").count(), ones, "one initial 1 per set bit");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn h3_k4_b12_w64_default_config_clear_mid_traffic() {
    let cfg = config(4, 12, 64, H3, 0);
    let mut rng = Rng::new(17);
    let requests = random_requests(&mut rng, 400, 64, 60, 200);
    let bench = Bench { idle_percent: 5, backpressure_percent: 20, readback_percent: 5, seed: 8 };
    let (run, mut sim) = run::<64>(&cfg, &requests, bench);
    assert_eq!(run.responses, 400);
    check_image(&mut sim, &run.golden, &cfg);
}

#[test]
fn h3_k2_b6_w64_readback_right_after_insert_sees_it() {
    // The readback one cycle after an insert of the same address needs the forward; the
    // address bits >= b that the readback carries must not defeat the compare.
    use hdl::sim::{CoreSim, CycleInputs};
    let cfg = config(2, 6, 64, H3, 3);
    let g = PartitionedFilter::new(golden_config(&cfg));
    let key = 0x1234_5678_9abc_def0u128;
    let addr = g.addresses(key).unwrap();
    for bank in 0..2u8 {
        for high in [0u16, 0xffc0] {
            let mut sim = CoreSim::new(hdl::verilog::build_core::<64>(&cfg).unwrap());
            sim.step(&CycleInputs { reset: true, ..Default::default() });
            let out = sim.step(&CycleInputs { req_valid: true, req_op: 1, req_key: key, resp_ready: true, ..Default::default() });
            assert!(out.req_ready);
            let rb = CycleInputs { rb_req: true, rb_bank: bank, rb_addr: addr[bank as usize] as u16 | high, resp_ready: true, ..Default::default() };
            let issued = sim.cycle;
            sim.step(&rb);
            let idle = CycleInputs { resp_ready: true, ..Default::default() };
            while sim.cycle < issued + hdl::READBACK_LATENCY as u64 {
                assert!(!sim.step(&idle).rb_valid);
            }
            let out = sim.step(&idle);
            assert!(out.rb_valid && out.rb_data, "bank {bank} high bits {high:#x}");
        }
    }
}
