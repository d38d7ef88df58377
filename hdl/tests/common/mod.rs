//! Drives the core in rust-hdl's simulator against the golden model, cycle by cycle.
#![allow(dead_code)]

use std::collections::VecDeque;

use golden::{Config, Op, PartitionedFilter};
use hdl::sim::{CoreSim, CycleInputs, CycleOutputs};
use hdl::verilog::build_core;
use hdl::{clear_cycles, CoreConfig, CoreParams, HashFamily, LATENCY, READBACK_LATENCY};

/// Deterministic xorshift64* traffic generator.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

pub fn golden_config(cfg: &CoreConfig) -> Config {
    cfg.params
}

pub fn config(k: usize, bank_bits: usize, key_bits: usize, hash: HashFamily, seed: u64) -> CoreConfig {
    CoreConfig::from(CoreParams::new(k as u32, bank_bits as u32, key_bits as u32, hash, seed).unwrap())
}

#[derive(Clone, Copy, Debug)]
pub struct Request {
    pub op: u8,
    pub key: u128,
}

/// How the test bench behaves on the handshakes.
#[derive(Clone, Copy, Debug)]
pub struct Bench {
    /// Percentage of cycles with req_valid low although requests are waiting.
    pub idle_percent: u64,
    /// Percentage of cycles with resp_ready low.
    pub backpressure_percent: u64,
    /// Percentage of cycles that issue a readback of a random bit instead of a request.
    pub readback_percent: u64,
    pub seed: u64,
}

impl Bench {
    pub fn full_rate() -> Bench {
        Bench { idle_percent: 0, backpressure_percent: 0, readback_percent: 0, seed: 1 }
    }
}

pub struct Run {
    pub cfg: CoreConfig,
    pub golden: PartitionedFilter,
    pub responses: usize,
    pub cycles: u64,
}

/// Runs the core and the golden model side by side; every response, readback, fill
/// count and the exact timing are checked as the run goes.
pub fn run<const W: usize>(cfg: &CoreConfig, requests: &[Request], bench: Bench) -> (Run, CoreSim<W>) {
    run_recording(cfg, requests, bench, false)
}

pub fn run_recording<const W: usize>(cfg: &CoreConfig, requests: &[Request], bench: Bench, record: bool) -> (Run, CoreSim<W>) {
    let mut sim = CoreSim::new(build_core::<W>(cfg).expect("core builds"));
    if record {
        sim.trace = Some(Vec::new());
    }
    let mut golden = PartitionedFilter::new(golden_config(cfg));
    let mut rng = Rng::new(bench.seed);
    let reset = CycleInputs { reset: true, ..Default::default() };
    sim.step(&reset);
    sim.step(&reset);

    let mut next = 0usize;
    // (tag, hit, accept cycle)
    let mut expected: VecDeque<(u8, bool, u64)> = VecDeque::new();
    // (accept cycle, bank, expected bit)
    let mut expected_rb: VecDeque<(u64, u8, u16, bool)> = VecDeque::new();
    let mut clear_accepted_at: Option<u64> = None;
    let mut responses = 0usize;
    let k = cfg.k() as u64;
    let bank_size = 1u64 << cfg.bank_bits();
    let never_backpressured = bench.backpressure_percent == 0;
    let mut guard = 0u64;
    while next < requests.len() || !expected.is_empty() || !expected_rb.is_empty() {
        guard += 1;
        assert!(guard < 100_000 + 40 * requests.len() as u64, "run does not finish");
        let cycle = sim.cycle;
        let mut inp = CycleInputs {
            resp_ready: !rng.chance(bench.backpressure_percent),
            fill_bank: rng.below(16) as u8,
            ..Default::default()
        };
        if next < requests.len() && !rng.chance(bench.idle_percent) {
            inp.req_valid = true;
            inp.req_op = requests[next].op;
            inp.req_key = requests[next].key;
            inp.req_tag = (next % 256) as u8;
        }
        // Readback while a clear sweeps is unspecified (core.rs): never issued here.
        let in_clear_window = clear_accepted_at.is_some_and(|t| cycle <= t + clear_cycles(cfg.bank_bits()) as u64 + 1);
        if bench.readback_percent > 0 && !in_clear_window && rng.chance(bench.readback_percent) {
            inp.rb_req = true;
            inp.rb_bank = rng.below(k + 1) as u8; // sometimes a bank >= k
            // Bits >= b are ignored by the core: sometimes set them.
            let high = if rng.chance(30) { rng.below(1 << 16) & !(bank_size - 1) } else { 0 };
            inp.rb_addr = (rng.below(bank_size) | high) as u16;
        }
        let out: CycleOutputs = sim.step(&inp);

        // Fill counters: those of the golden model after every response delivered so
        // far... are only comparable when nothing is in flight; checked when idle.
        if expected.is_empty() && expected_rb.is_empty() && clear_accepted_at.is_none_or(|t| cycle > t + 8) {
            let want = if (inp.fill_bank as u64) < k { golden.fill()[inp.fill_bank as usize] } else { 0 };
            assert_eq!(out.fill_count, want, "fill_count of bank {} in cycle {cycle}", inp.fill_bank);
        }
        if let Some(t) = clear_accepted_at {
            let sweeping = cycle <= t + clear_cycles(cfg.bank_bits()) as u64;
            assert_eq!(out.busy, sweeping, "busy in cycle {cycle} after a clear accepted in cycle {t}");
            if sweeping {
                assert!(!out.req_ready, "req_ready in cycle {cycle} during the clear accepted in cycle {t}");
            }
        } else {
            assert!(!out.busy, "busy without a clear in cycle {cycle}");
        }
        if inp.rb_req {
            assert!(!out.req_ready, "req_ready high in a readback cycle {cycle}");
            let addr = inp.rb_addr as u32 & (bank_size as u32 - 1);
            let bit = (inp.rb_bank as u64) < k && golden.bit(inp.rb_bank as usize, addr);
            expected_rb.push_back((cycle, inp.rb_bank, inp.rb_addr, bit));
        }
        if out.rb_valid {
            let (t, bank, addr, bit) = expected_rb.pop_front().expect("unexpected rb_valid");
            assert_eq!(cycle, t + READBACK_LATENCY as u64, "readback latency");
            if clear_accepted_at.is_none_or(|c| t > c + clear_cycles(cfg.bank_bits()) as u64) {
                assert_eq!(out.rb_data, bit, "readback bank {bank} addr {addr} issued in cycle {t}");
            }
        } else if let Some((t, ..)) = expected_rb.front() {
            assert!(cycle < t + READBACK_LATENCY as u64, "readback issued in cycle {t} missing");
        }
        if out.resp_valid && inp.resp_ready {
            let (tag, hit, t) = expected.pop_front().expect("response without a request");
            assert_eq!(out.resp_tag, tag, "response order (cycle {cycle})");
            assert_eq!(out.resp_hit, hit, "hit of request tag {tag} accepted in cycle {t}, answered in cycle {cycle}");
            if never_backpressured {
                assert_eq!(cycle, t + LATENCY as u64, "latency of request tag {tag}");
            }
            responses += 1;
        } else if never_backpressured {
            if let Some((tag, _, t)) = expected.front() {
                assert!(cycle < t + LATENCY as u64, "response to tag {tag} accepted in cycle {t} is late");
            }
        }
        if inp.req_valid && out.req_ready {
            let r = requests[next];
            let op = match r.op {
                1 => Op::Insert(r.key),
                2 => Op::Clear,
                _ => Op::Query(r.key),
            };
            let hit = golden.apply(op).unwrap();
            if r.op == 2 {
                clear_accepted_at = Some(cycle);
            }
            expected.push_back((inp.req_tag, hit, cycle));
            next += 1;
        }
        if never_backpressured && bench.idle_percent == 0 && bench.readback_percent == 0 && next < requests.len() {
            let in_clear = clear_accepted_at.is_some_and(|t| cycle <= t + clear_cycles(cfg.bank_bits()) as u64);
            assert!(out.req_ready || in_clear, "II=1 broken: req_ready low in cycle {cycle}");
        }
    }
    let cycles = sim.cycle;
    (Run { cfg: cfg.clone(), golden, responses, cycles }, sim)
}

/// Reads every bit of every bank through the readback port (one per cycle) and compares
/// with the golden image; also compares every fill counter.
pub fn check_image<const W: usize>(sim: &mut CoreSim<W>, golden: &PartitionedFilter, cfg: &CoreConfig) {
    let size = 1u32 << cfg.bank_bits();
    let mut issued: VecDeque<(usize, u32)> = VecDeque::new();
    let mut all = (0..cfg.k()).flat_map(|p| (0..size).map(move |a| (p, a)));
    let mut checked = 0;
    loop {
        let mut inp = CycleInputs { resp_ready: true, ..Default::default() };
        if let Some((p, a)) = all.next() {
            inp.rb_req = true;
            inp.rb_bank = p as u8;
            inp.rb_addr = a as u16;
            issued.push_back((p, a));
        } else if issued.is_empty() {
            break;
        }
        let out = sim.step(&inp);
        if out.rb_valid {
            let (p, a) = issued.pop_front().unwrap();
            assert_eq!(out.rb_data, golden.bit(p, a), "image bit bank {p} addr {a}");
            checked += 1;
        }
    }
    assert_eq!(checked, cfg.k() * size as usize);
    for p in 0..cfg.k() {
        let out = sim.step(&CycleInputs { resp_ready: true, fill_bank: p as u8, ..Default::default() });
        assert_eq!(out.fill_count, golden.fill()[p], "fill of bank {p}");
        assert_eq!(sim.core.bank_contents(p).iter().filter(|b| **b).count() as u32, golden.fill()[p]);
    }
}

/// Random requests over a small key pool, so that repeats and same-address hazards are
/// frequent; `clear_every` = 0 means no clears.
pub fn random_requests(rng: &mut Rng, n: usize, key_bits: usize, pool: usize, clear_every: usize) -> Vec<Request> {
    let mask = if key_bits == 128 { u128::MAX } else { (1u128 << key_bits) - 1 };
    let keys: Vec<u128> = (0..pool).map(|_| (((rng.next() as u128) << 64) | rng.next() as u128) & mask).collect();
    (0..n)
        .map(|i| {
            if clear_every > 0 && i % clear_every == clear_every - 1 {
                Request { op: 2, key: 0 }
            } else {
                let op = match rng.below(10) {
                    0..=4 => 1,
                    5..=8 => 0,
                    _ => 3,
                };
                Request { op, key: keys[rng.below(pool as u64) as usize] }
            }
        })
        .collect()
}
