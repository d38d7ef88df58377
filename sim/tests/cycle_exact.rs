//! Every port in every cycle against the golden model and the documented
//! timing (sim's one checker, `CycleChecker`): responses and their exact
//! latency, readbacks mixed into the traffic, `fill_count` and `busy` in every
//! cycle, the final memory image. The rust-hdl model and the Verilated
//! Verilog run the same reactive bench; where both run, their logs must be
//! equal cycle for cycle (the Verilog is the hardware the Rust describes).

mod common;

use golden::HashFamily::{Crc, H3};
use golden::PartitionedFilter;
use sim::cycles::{check_image, run_bench, Bench, CycleLog, PortCore};
use sim::rusthdl::RustHdlCore;
use sim::traffic::Rng;
use sim::{Checker, Request};

fn config(
    k: u32,
    bank_bits: u32,
    key_bits: u32,
    hash: golden::HashFamily,
    seed: u64,
) -> hdl::CoreConfig {
    hdl::CoreConfig::from(hdl::CoreParams::new(k, bank_bits, key_bits, hash, seed).unwrap())
}

fn list(c: &Checker) -> String {
    c.first
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs the bench and the image check on `core`; the checker and the log.
fn run(
    core: &mut dyn PortCore,
    cfg: &hdl::CoreConfig,
    requests: &[Request],
    bench: Bench,
) -> (Checker, CycleLog) {
    // Both cores come straight out of their start-up reset (two cycles).
    let mut checker = Checker::new(hdl::Timing::of(&cfg.params), cfg.params, core.now() - 1);
    let log = run_bench(core, &cfg.params, requests, bench, &mut checker).unwrap();
    check_image(core, &cfg.params, &mut checker).unwrap();
    (checker, log)
}

/// The rust-hdl model alone; every check must pass.
fn rust_hdl(cfg: &hdl::CoreConfig, requests: &[Request], bench: Bench) -> Checker {
    let mut core = RustHdlCore::new(cfg).unwrap();
    let (checker, _) = run(&mut core, cfg, requests, bench);
    checker
}

/// Both simulators, from the same state after the same power-up: both pass
/// every check and their logs are equal.
fn both(cfg: &hdl::CoreConfig, requests: &[Request], bench: Bench) {
    let mut v = common::verilated(cfg);
    let mut r = RustHdlCore::new(cfg).unwrap();
    assert_eq!(v.cycle(), r.cycle(), "both start after the same power-up");
    let (vc, vlog) = run(&mut v, cfg, requests, bench);
    let (rc, rlog) = run(&mut r, cfg, requests, bench);
    assert_eq!(rc.mismatches, 0, "rust-hdl {}:\n{}", cfg.label(), list(&rc));
    assert_eq!(
        vc.mismatches,
        0,
        "Verilator {}:\n{}",
        cfg.label(),
        list(&vc)
    );
    assert_eq!(vlog.inputs.len(), rlog.inputs.len(), "run lengths differ");
    // A payload means nothing while its valid is low (the Verilog's FIFO shows
    // whatever its entries hold, the model 0).
    let outputs: Vec<String> = hdl::ports::core_ports(&cfg.params)
        .into_iter()
        .filter(|p| p.direction == hdl::ports::Direction::Output)
        .map(|p| p.name)
        .collect();
    let at = |n: &str| outputs.iter().position(|o| o == n).unwrap();
    let masked = |log: &CycleLog| -> Vec<Vec<u128>> {
        log.outputs
            .iter()
            .map(|o| {
                let mut o = o.clone();
                for (valid, data) in [
                    ("resp_valid", "resp_hit"),
                    ("resp_valid", "resp_tag"),
                    ("rb_valid", "rb_data"),
                ] {
                    if o[at(valid)] == 0 {
                        o[at(data)] = 0;
                    }
                }
                o
            })
            .collect()
    };
    let (vout, rout) = (masked(&vlog), masked(&rlog));
    if let Some(c) = (0..vout.len()).find(|&c| vout[c] != rout[c]) {
        panic!(
            "{}: cycle {}: Verilator outputs {:x?}, rust-hdl {:x?} ({outputs:?})",
            cfg.label(),
            vlog.start + c as u64,
            vout[c],
            rout[c]
        );
    }
    assert_eq!((vlog.start, &vlog.inputs), (rlog.start, &rlog.inputs));
    assert_eq!(vc.responses as usize, requests.len());
}

/// Random requests over a small key pool, so that repeats and same-address
/// hazards are frequent; `clear_every` = 0 means no clears.
fn random_requests(
    rng: &mut Rng,
    n: usize,
    key_bits: u32,
    pool: usize,
    clear_every: usize,
) -> Vec<Request> {
    let keys: Vec<u128> = (0..pool).map(|_| rng.key(key_bits)).collect();
    (0..n)
        .map(|i| {
            if clear_every > 0 && i % clear_every == clear_every - 1 {
                Request {
                    op: 2,
                    key: 0,
                    tag: 0,
                }
            } else {
                let op = match rng.below(10) {
                    0..=4 => 1,
                    5..=8 => 0,
                    _ => 3,
                };
                Request {
                    op,
                    key: keys[rng.below(pool as u64) as usize],
                    tag: 0,
                }
            }
        })
        .collect()
}

fn keys_sharing_bank_address(cfg: &hdl::CoreConfig, bank: usize, rng: &mut Rng) -> (u128, u128) {
    let g = PartitionedFilter::new(cfg.params);
    let mut seen = std::collections::HashMap::new();
    loop {
        let key = rng.key(cfg.params.key_bits);
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
    let ins = |key| Request { op: 1, key, tag: 0 };
    let qry = |key| Request { op: 0, key, tag: 0 };
    vec![
        qry(x),
        ins(x),
        qry(x),
        ins(x),
        ins(x),
        qry(x), // back to back, same key
        ins(y),
        qry(y),
        qry(x),
        ins(y), // same bank-0 address, other key
        Request {
            op: 3,
            key: y,
            tag: 0,
        },
        qry(y),
        ins(x),
        ins(y),
        ins(x),
        qry(y),
        qry(x),
    ]
}

#[test]
fn h3_k4_b6_w64_back_to_back_same_key_and_same_address() {
    let cfg = config(4, 6, 64, H3, 0);
    let c = rust_hdl(&cfg, &hazard_script(&cfg, 7), Bench::full_rate());
    assert_eq!(c.mismatches, 0, "{}", list(&c));
    assert_eq!(c.responses, 17);
}

#[test]
fn crc_k4_b6_w32_back_to_back_same_key_and_same_address() {
    let cfg = config(4, 6, 32, Crc, 99);
    let c = rust_hdl(&cfg, &hazard_script(&cfg, 8), Bench::full_rate());
    assert_eq!(c.mismatches, 0, "{}", list(&c));
}

#[test]
fn h3_k4_b6_w64_without_forwarding_is_caught() {
    let mut cfg = config(4, 6, 64, H3, 0);
    cfg.test_switches.disable_forwarding = true;
    let c = rust_hdl(&cfg, &hazard_script(&cfg, 7), Bench::full_rate());
    let first = c
        .first
        .first()
        .expect("the core without forwarding must be caught");
    assert!(first.what.contains("response (hit 0"), "{first}");
}

#[test]
fn h3_k4_b6_w64_perturbed_seed_is_caught() {
    let mut cfg = config(4, 6, 64, H3, 0);
    cfg.test_switches.perturb_seed_of_bank = Some(2);
    let requests = random_requests(&mut Rng::new(3), 200, 64, 40, 0);
    let c = rust_hdl(&cfg, &requests, Bench::full_rate());
    assert!(c.mismatches > 0);
    // Bank 2's bits differ from the golden model's: its fill counter shows it first.
    let first = &c.first[0];
    assert!(first.what.contains("fill_count of bank 2"), "{}", list(&c));
}

#[test]
fn h3_k4_b6_w64_random_mix_full_rate_with_clears() {
    let cfg = config(4, 6, 64, H3, 0x1234);
    let requests = random_requests(&mut Rng::new(11), 300, 64, 24, 120);
    let c = rust_hdl(&cfg, &requests, Bench::full_rate());
    assert_eq!(c.mismatches, 0, "{}", list(&c));
}

#[test]
fn crc_k3_b6_w32_random_mix_backpressure_idle_readback() {
    let cfg = config(3, 6, 32, Crc, 5);
    let requests = random_requests(&mut Rng::new(12), 250, 32, 24, 90);
    let bench = Bench {
        idle_percent: 20,
        backpressure_percent: 45,
        readback_percent: 10,
        seed: 3,
    };
    let c = rust_hdl(&cfg, &requests, bench);
    assert_eq!(c.mismatches, 0, "{}", list(&c));
}

#[test]
fn h3_k16_b7_w128_random_mix_full_rate() {
    let cfg = config(16, 7, 128, H3, 42);
    let requests = random_requests(&mut Rng::new(14), 150, 128, 30, 0);
    let c = rust_hdl(&cfg, &requests, Bench::full_rate());
    assert_eq!(c.mismatches, 0, "{}", list(&c));
}

#[test]
fn h3_k1_b12_w64_fill_counter_every_cycle_across_255_and_511() {
    // The fill counter is two halves with a registered carry between them
    // (core/partition.rs); back-to-back inserts of distinct keys carry it across 256
    // and 512 while increments arrive every cycle, and the checker compares
    // fill_count with the golden fill in every cycle.
    let cfg = config(1, 12, 64, H3, 0);
    let mut rng = Rng::new(21);
    let requests: Vec<Request> = (0..700)
        .map(|_| Request {
            op: 1,
            key: rng.key(64),
            tag: 0,
        })
        .collect();
    let mut core = RustHdlCore::new(&cfg).unwrap();
    let mut checker = Checker::new(hdl::Timing::of(&cfg.params), cfg.params, core.last_reset());
    let bench = Bench {
        readback_percent: 0,
        idle_percent: 0,
        backpressure_percent: 0,
        seed: 9,
    };
    let log = run_bench(&mut core, &cfg.params, &requests, bench, &mut checker).unwrap();
    assert_eq!(checker.mismatches, 0, "{}", list(&checker));
    assert!(
        checker.golden.fill()[0] > 512,
        "fill {} does not pass 512",
        checker.golden.fill()[0]
    );
    assert!(log.outputs.len() >= 700);
}

#[test]
fn h3_k2_b6_w64_preloaded_image_is_the_initial_state() {
    let cfg = config(2, 6, 64, H3, 77);
    let mut g = PartitionedFilter::new(cfg.params);
    let mut rng = Rng::new(16);
    for _ in 0..20 {
        g.insert(rng.key(64)).unwrap();
    }
    let dir = std::env::temp_dir().join(format!("sim-preload-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    g.export_image(&dir).unwrap();
    let pre = hdl::CoreConfig {
        preload: Some(dir.clone()),
        ..cfg.clone()
    };
    let mut core = RustHdlCore::new(&pre).unwrap();
    // From the reset on: the recount counts the image up (fill_count every
    // cycle), then every bit is read back.
    let mut checker =
        Checker::after_reset(hdl::Timing::of(&cfg.params), g.clone(), core.last_reset());
    sim::cycles::settle(&mut core, &cfg.params, &mut checker).unwrap();
    check_image(&mut core, &cfg.params, &mut checker).unwrap();
    assert_eq!(checker.mismatches, 0, "{}", list(&checker));
    assert!(checker.cycles > hdl::Timing::of(&cfg.params).reset_busy_cycles as u64);
    let verilog = hdl::generate_core(&pre).unwrap().verilog;
    let ones: usize = g.fill().iter().map(|f| *f as usize).sum();
    assert_eq!(
        verilog.matches("] = 1'b1;").count(),
        ones,
        "one initial 1 per set bit"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn h3_k2_b6_w64_readback_right_after_insert_sees_it() {
    // The readback one cycle after an insert of the same address needs the forward; the
    // address bits >= b that the readback carries must not defeat the compare.
    let cfg = config(2, 6, 64, H3, 3);
    let key = 0x1234_5678_9abc_def0u128;
    let addr = PartitionedFilter::new(cfg.params).addresses(key).unwrap();
    for (bank, &bank_addr) in addr.iter().enumerate().take(2) {
        for high in [0u128, 0xffc0] {
            let mut core = RustHdlCore::new(&cfg).unwrap();
            core.idle(hdl::Timing::of(&cfg.params).reset_busy_cycles as u64);
            core.set("resp_ready", 1);
            core.set("req_valid", 1);
            core.set("req_op", 1);
            core.set("req_key", key);
            assert!(core.step().bit("req_ready"));
            core.set("req_valid", 0);
            core.set("rb_req", 1);
            core.set("rb_bank", bank as u128);
            core.set("rb_addr", bank_addr as u128 | high);
            let issued = core.cycle();
            core.step();
            core.set("rb_req", 0);
            while core.cycle() < issued + hdl::READBACK_LATENCY as u64 {
                assert!(!core.step().bit("rb_valid"));
            }
            let out = core.step();
            assert!(
                out.bit("rb_valid") && out.bit("rb_data"),
                "bank {bank} high bits {high:#x}"
            );
        }
    }
}

#[test]
fn both_h3_k4_b6_w64_mixed_traffic_with_clears_backpressure_readback() {
    let cfg = config(4, 6, 64, H3, 21);
    let requests = random_requests(&mut Rng::new(31), 400, 64, 24, 130);
    both(
        &cfg,
        &requests,
        Bench {
            idle_percent: 10,
            backpressure_percent: 30,
            readback_percent: 10,
            seed: 5,
        },
    );
}

#[test]
fn both_crc_k10_b6_w128_full_rate_then_heavy_backpressure() {
    let cfg = config(10, 6, 128, Crc, 0xdead_beef);
    let requests = random_requests(&mut Rng::new(32), 300, 128, 20, 0);
    both(&cfg, &requests, Bench::full_rate());
    both(
        &cfg,
        &requests,
        Bench {
            idle_percent: 5,
            backpressure_percent: 80,
            readback_percent: 5,
            seed: 4,
        },
    );
}

#[test]
fn both_crc_k2_b7_w32_backpressure() {
    let cfg = config(2, 7, 32, Crc, 1);
    let requests = random_requests(&mut Rng::new(33), 300, 32, 30, 100);
    both(
        &cfg,
        &requests,
        Bench {
            idle_percent: 0,
            backpressure_percent: 60,
            readback_percent: 5,
            seed: 6,
        },
    );
}

#[test]
fn h3_k1_b12_w64_random_mix_default_bank_size() {
    let cfg = config(1, 12, 64, H3, 0);
    let requests = random_requests(&mut Rng::new(15), 200, 64, 40, 0);
    let c = rust_hdl(&cfg, &requests, Bench::full_rate());
    assert_eq!(c.mismatches, 0, "{}", list(&c));
}

/// One cycle of a scripted bench: a request (held until accepted), a bit write
/// or readback through the bank access port, or idle cycles.
#[derive(Clone, Copy, Debug)]
enum Step {
    Req(Request),
    Write { bank: u128, addr: u128, value: bool },
    Read { bank: u128, addr: u128 },
    Idle(u32),
}

/// Runs `script` on `core` with every port of every cycle checked, then the
/// whole image; the checker and every cycle's outputs.
fn run_script(
    core: &mut dyn sim::cycles::PortCore,
    cfg: &hdl::CoreConfig,
    script: &[Step],
) -> (Checker, Vec<Vec<u128>>) {
    let names = sim::cycles::PortNames::of(&cfg.params);
    let mut checker = Checker::new(hdl::Timing::of(&cfg.params), cfg.params, core.now() - 1);
    let mut outputs = vec![];
    let mut steps: std::collections::VecDeque<Step> = script.iter().copied().collect();
    let mut fill_bank = 0u128;
    let mut guard = 0;
    while !steps.is_empty() || !checker.quiet_at(core.now()) {
        guard += 1;
        assert!(guard < 100_000, "script did not finish");
        let cycle = core.now();
        let mut inputs = vec![0u128; names.inputs.len()];
        let mut set = |name: &str, v: u128| names.set(&mut inputs, name, v);
        set("resp_ready", 1);
        // Every bank's counter in turn (the checker compares it every cycle).
        fill_bank = (fill_bank + 1) % cfg.params.k as u128;
        set("fill_bank", fill_bank);
        let mut done = true;
        match steps.front().copied() {
            Some(Step::Req(r)) => {
                set("req_valid", 1);
                set("req_op", r.op as u128);
                set("req_key", r.key);
            }
            Some(Step::Write { bank, addr, value }) => {
                set("rb_req", 1);
                set("rb_write", 1);
                set("rb_bank", bank);
                set("rb_addr", addr);
                set("rb_wdata", value as u128);
            }
            Some(Step::Read { bank, addr }) => {
                set("rb_req", 1);
                set("rb_bank", bank);
                set("rb_addr", addr);
            }
            Some(Step::Idle(n)) => {
                if n > 1 {
                    steps[0] = Step::Idle(n - 1);
                    done = false;
                }
            }
            None => done = false,
        }
        let out = core.step_ports(&inputs).unwrap();
        let get = |name: &str| names.get(&inputs, &out, name);
        if matches!(steps.front(), Some(Step::Req(_))) && get("req_ready") == 0 {
            done = false;
        }
        checker.cycle_ports(cycle, &get);
        outputs.push(out);
        if done {
            steps.pop_front();
        }
    }
    check_image(core, &cfg.params, &mut checker).unwrap();
    (checker, outputs)
}

/// Bit writes between requests, back to back: a query right behind a write of
/// 0 (or 1) into one of its bits sees it (forwarded), a write right behind an
/// insert of the same bit overwrites it, repeated writes count once, a write
/// while a clear sweeps is dropped, a bank >= k is ignored.
fn bit_write_script(cfg: &hdl::CoreConfig) -> Vec<Step> {
    let g = PartitionedFilter::new(cfg.params);
    let x = 0x0123_4567_89ab_cdefu128 & ((1u128 << cfg.params.key_bits) - 1);
    let a: Vec<u128> = g
        .addresses(x)
        .unwrap()
        .into_iter()
        .map(u128::from)
        .collect();
    let req = |op, key| Step::Req(Request { op, key, tag: 0 });
    let write = |bank: usize, value| Step::Write {
        bank: bank as u128,
        addr: a[bank],
        value,
    };
    let read = |bank: usize| Step::Read {
        bank: bank as u128,
        addr: a[bank],
    };
    let busy = cfg.params.bank_size() / 2;
    vec![
        // Right after reset, during the recount: dropped (the image check at the end sees it).
        Step::Write {
            bank: 0,
            addr: 1,
            value: true,
        },
        req(1, x),
        write(0, false),
        req(0, x),
        write(0, true),
        req(0, x),
        read(0),
        write(1, false),
        write(1, false),
        req(1, x),
        write(1, false),
        req(0, x),
        req(1, x),
        req(0, x),
        write(0, true),
        write(0, true),
        read(0),
        write(0, false),
        read(0),
        req(0, x),
        Step::Write {
            bank: 15,
            addr: 3,
            value: true,
        },
        Step::Write {
            bank: 0,
            addr: a[0] | 0xff00,
            value: true,
        },
        req(0, x),
        req(1, x),
        req(2, 0),
        Step::Idle(busy),
        write(0, true),
        write(1, true),
        Step::Idle(busy + 16),
        read(0),
        read(1),
        req(0, x),
        write(0, true),
        Step::Idle(3),
        write(0, false),
        Step::Idle(1),
        write(0, true),
        read(0),
    ]
}

#[test]
fn both_h3_k2_b6_w64_bit_writes_between_requests_forwarded_and_counted() {
    let cfg = config(2, 6, 64, H3, 9);
    let script = bit_write_script(&cfg);
    let mut v = common::verilated(&cfg);
    let mut r = RustHdlCore::new(&cfg).unwrap();
    let (vc, vout) = run_script(&mut v, &cfg, &script);
    let (rc, rout) = run_script(&mut r, &cfg, &script);
    assert_eq!(rc.mismatches, 0, "rust-hdl:\n{}", list(&rc));
    assert_eq!(vc.mismatches, 0, "Verilator:\n{}", list(&vc));
    assert_eq!(vout.len(), rout.len());
    // The script's own answers: the queries right behind writes of 0 miss.
    let mut g = PartitionedFilter::new(cfg.params);
    let x = 0x0123_4567_89ab_cdefu128;
    g.insert(x).unwrap();
    let a = g.addresses(x).unwrap();
    g.write_bit(0, a[0], false).unwrap();
    assert!(!g.query(x).unwrap(), "the golden model sees the bit write");
    assert_eq!(vc.responses, rc.responses);
}

#[test]
fn h3_k2_b6_w64_bit_writes_without_forwarding_are_caught() {
    let mut cfg = config(2, 6, 64, H3, 9);
    cfg.test_switches.disable_forwarding = true;
    let mut core = RustHdlCore::new(&cfg).unwrap();
    let (c, _) = run_script(&mut core, &cfg, &bit_write_script(&cfg));
    assert!(
        c.mismatches > 0,
        "a core that does not forward bit writes must be caught"
    );
}

#[test]
fn h3_k1_b12_w64_fill_counter_counts_down_across_512_and_256() {
    // Back-to-back writes of 0 over set bits take the two-half counter down
    // across 512 and 256 (a borrow every 256), with changes every cycle;
    // writes of 1 over 0 bits take it up again.
    let cfg = config(1, 12, 64, H3, 0);
    let mut core = RustHdlCore::new(&cfg).unwrap();
    // Past the recount after reset (writes while busy are dropped).
    let mut script = vec![Step::Idle(hdl::timing::reset_busy_cycles(12))];
    script.extend((0..600u128).map(|a| Step::Write {
        bank: 0,
        addr: a * 5,
        value: true,
    }));
    script.extend((0..600u128).map(|a| Step::Write {
        bank: 0,
        addr: a * 5,
        value: false,
    }));
    script.extend((0..300u128).map(|a| Step::Write {
        bank: 0,
        addr: a * 3,
        value: a % 2 == 0,
    }));
    let (c, _) = run_script(&mut core, &cfg, &script);
    assert_eq!(c.mismatches, 0, "{}", list(&c));
    assert_eq!(
        c.golden.fill()[0],
        (0..300u32).filter(|a| a % 2 == 0).count() as u32
    );
}
