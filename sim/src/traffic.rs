//! Seeded, deterministic request traffic for the core.
//!
//! The traffic is shaped to find bugs rather than to look like a workload:
//! keys come mostly from a small pool (so repeats, insert-then-query at every
//! pipeline distance and bank-address collisions are frequent), sometimes
//! repeat one of the last few keys on purpose (hazards at distance 1..8), and
//! include edge keys (0, all ones, single bits). Requests arrive in bursts
//! separated by idle gaps, the response consumer stalls at random, and clears
//! fall in the middle of traffic. Besides the request channel, every cycle
//! gets side inputs ([`SideTraffic`]): `fill_bank` at random (so every fill
//! counter is compared in every few cycles), readbacks of random bits mixed
//! into the traffic, and resets at random times, which land with requests in
//! flight, responses outstanding, a clear sweeping, a readback pending or the
//! recount of an earlier reset running. The same seed gives the same traffic.

/// The seeded generator of the traffic (the project's one test generator).
pub type Rng = golden::rng::SplitMix64;

/// The response consumer: whether it takes a response in the next cycle.
pub trait Consumer {
    fn next_ready(&mut self) -> bool;
}

impl Consumer for Traffic {
    fn next_ready(&mut self) -> bool {
        Traffic::next_ready(self)
    }
}

/// A consumer that repeats a fixed readiness pattern (empty = always ready).
#[derive(Clone, Debug, Default)]
pub struct ReadyPattern {
    pub pattern: Vec<bool>,
    pos: usize,
}

impl ReadyPattern {
    pub fn new(pattern: Vec<bool>) -> ReadyPattern {
        ReadyPattern { pattern, pos: 0 }
    }
}

impl Consumer for ReadyPattern {
    fn next_ready(&mut self) -> bool {
        if self.pattern.is_empty() {
            return true;
        }
        let r = self.pattern[self.pos % self.pattern.len()];
        self.pos += 1;
        r
    }
}

/// One request on the core's request channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Operation code (contract §5): 0 query, 1 insert, 2 clear, 3 reserved (query).
    pub op: u8,
    pub key: u128,
    pub tag: u8,
}

/// How the traffic looks. Probabilities are per request (or per cycle for the
/// consumer).
#[derive(Clone, Debug, PartialEq)]
pub struct TrafficShape {
    pub key_bits: u32,
    /// Distinct keys in the hot pool; 0 means every key is fresh and random.
    pub pool_size: usize,
    /// Probability a key is drawn from the pool (else fresh random).
    pub p_pool: f64,
    /// Probability a key repeats one of the last 8 keys (read-after-write hazards).
    pub p_recent: f64,
    /// Probability of an edge key (0, all ones, a single set bit).
    pub p_edge: f64,
    pub p_insert: f64,
    pub p_clear: f64,
    /// Probability of op code 3: a delete in a counting core, a query in a plain one.
    pub p_reserved: f64,
    /// Probability that a burst ends after a request, and then an idle gap of
    /// 1..=max_gap cycles follows.
    pub p_burst_end: f64,
    pub max_gap: u32,
    /// Response consumer: probability per cycle of entering a stall, and of
    /// leaving it.
    pub p_stall_start: f64,
    pub p_stall_end: f64,
    /// Probability per cycle of a readback of a random bit.
    pub p_readback: f64,
    /// Probability per cycle that a reset starts; it lasts 1..=max_reset_cycles.
    pub p_reset: f64,
    pub max_reset_cycles: u32,
    /// Probability per cycle of `scrub_req` (docs/contract.md §5.2; ignored by the core
    /// while a scrub runs), drawn from a generator of its own so that the other side
    /// inputs are the same with and without scrubs.
    pub p_scrub: f64,
}

impl TrafficShape {
    /// Hostile default: small pool, hazards, clears, bursts and stalls.
    pub fn stress(key_bits: u32) -> TrafficShape {
        TrafficShape {
            key_bits,
            pool_size: 24,
            p_pool: 0.6,
            p_recent: 0.2,
            p_edge: 0.02,
            p_insert: 0.5,
            p_clear: 0.002,
            p_reserved: 0.02,
            p_burst_end: 0.1,
            max_gap: 6,
            p_stall_start: 0.05,
            p_stall_end: 0.3,
            p_readback: 1.0 / 32.0,
            p_reset: 1.0 / 20_000.0,
            max_reset_cycles: 3,
            p_scrub: 0.0,
        }
    }

    /// [`TrafficShape::stress`] with clears and resets rare enough that clear
    /// windows (`clear_cycles` each) take about a quarter of the cycles at most,
    /// and recounts after resets (`reset_busy_cycles` each) about a tenth.
    pub fn stress_for(key_bits: u32, timing: &hdl::Timing) -> TrafficShape {
        let mut s = TrafficShape::stress(key_bits);
        s.p_clear = s.p_clear.min(0.25 / timing.clear_cycles.max(1) as f64);
        s.p_reset = s.p_reset.min(0.1 / timing.reset_busy_cycles.max(1) as f64);
        s
    }

    /// [`TrafficShape::stress_for`] with resets frequent enough that a short
    /// run meets every situation a reset can meet (recounts take about half
    /// the cycles): for tests of reset.
    pub fn reset_heavy(key_bits: u32, timing: &hdl::Timing) -> TrafficShape {
        let mut s = TrafficShape::stress_for(key_bits, timing);
        s.p_reset = 0.5 / timing.reset_busy_cycles.max(1) as f64;
        s.p_clear = 0.2 / timing.clear_cycles.max(1) as f64;
        s
    }

    /// This shape with a scrub requested with probability `p` per cycle (one starts
    /// soon after the last ended: scrubs run beside every kind of traffic).
    pub fn with_scrubs(mut self, p: f64) -> TrafficShape {
        self.p_scrub = p;
        self
    }

    /// This shape for a core of `counter_bits` c (unchanged for c = 1): in a counting
    /// core op 3 is a delete, and 60 % of the requests that are neither clears nor
    /// inserts are deletes (with the stress shapes: half the requests inserts, three in
    /// ten deletes). Keys from the pool are inserted and deleted again and again (so
    /// small counters saturate, and deletes meet saturated counters), fresh keys are
    /// deleted without having been inserted (deletes of absent keys); the checker
    /// counts how often each happened.
    pub fn for_counters(mut self, counter_bits: u32) -> TrafficShape {
        if counter_bits > 1 {
            self.p_reserved = 0.6;
        }
        self
    }

    /// Back-to-back requests, a consumer that never stalls, no clears: the
    /// throughput measurement.
    pub fn saturating(key_bits: u32) -> TrafficShape {
        TrafficShape {
            key_bits,
            pool_size: 4096,
            p_pool: 0.5,
            p_recent: 0.05,
            p_edge: 0.0,
            p_insert: 0.5,
            p_clear: 0.0,
            p_reserved: 0.0,
            p_burst_end: 0.0,
            max_gap: 0,
            p_stall_start: 0.0,
            p_stall_end: 1.0,
            p_readback: 0.0,
            p_reset: 0.0,
            max_reset_cycles: 1,
            p_scrub: 0.0,
        }
    }
}

/// The side inputs of every cycle (see `side`): `fill_bank` (mostly a
/// bank of the core, sometimes one >= k, which must read 0), readbacks of
/// random bits (sometimes of a bank >= k, sometimes with address bits >= b
/// set; a third of them bit writes of a random value) and resets, as the
/// shape says.
#[derive(Clone, Debug)]
pub struct SideTraffic {
    rng: Rng,
    k: u64,
    bank_bits: u32,
    readback_below: u64,
    reset_below: u64,
    max_reset_cycles: u32,
    reset_left: u32,
    /// S = 2^c - 1 of a counting core (the largest counter a write writes); 0 for a plain core.
    counter_max: u8,
    scrub_rng: Rng,
    scrub_below: u64,
}

fn threshold(p: f64) -> u64 {
    if p <= 0.0 {
        0
    } else if p >= 1.0 {
        u64::MAX
    } else {
        (p * (1u64 << 32) as f64) as u64
    }
}

impl SideTraffic {
    pub fn new(shape: &TrafficShape, seed: u64, params: &hdl::CoreParams) -> SideTraffic {
        SideTraffic {
            rng: Rng::new(seed ^ 0x51DE_51DE_51DE),
            k: params.k as u64,
            bank_bits: params.bank_bits,
            readback_below: threshold(shape.p_readback),
            reset_below: threshold(shape.p_reset),
            max_reset_cycles: shape.max_reset_cycles.max(1),
            reset_left: 0,
            counter_max: if params.counter_bits > 1 {
                ((1u32 << params.counter_bits) - 1) as u8
            } else {
                0
            },
            scrub_rng: Rng::new(seed ^ 0x5C5B_5C5B_5C5B),
            scrub_below: threshold(shape.p_scrub),
        }
    }

    fn fill_bank(&self, r: u64) -> u8 {
        // 7 in 8 cycles a bank of the core, else any of the 16 selects.
        if r & 7 != 0 {
            ((r >> 3 & 0xffff) % self.k) as u8
        } else {
            (r >> 3 & 15) as u8
        }
    }

    /// The next cycle's side inputs.
    pub fn next_inputs(&mut self) -> u64 {
        let scrub = if self.scrub_below > 0 && (self.scrub_rng.next_u64() >> 32) < self.scrub_below
        {
            crate::side::SCRUB_REQ
        } else {
            0
        };
        self.inputs() | scrub
    }

    fn inputs(&mut self) -> u64 {
        let r = self.rng.next_u64();
        let fill_bank = self.fill_bank(r);
        if self.reset_left > 0 {
            self.reset_left -= 1;
            return crate::side::input(true, None, fill_bank);
        }
        if self.reset_below > 0 && (self.rng.next_u64() >> 32) < self.reset_below {
            self.reset_left = self.rng.below(self.max_reset_cycles as u64) as u32;
            return crate::side::input(true, None, fill_bank);
        }
        let readback = ((r >> 32) < self.readback_below).then(|| {
            let bank = if self.rng.chance(0.1) {
                self.rng.below(16)
            } else {
                self.rng.below(self.k)
            } as u8;
            let size = 1u64 << self.bank_bits;
            let mut addr = self.rng.below(size);
            if self.bank_bits < 16 && self.rng.chance(0.2) {
                addr |= self.rng.below(1 << 16) & !(size - 1);
            }
            // A third of them also write a random bit (a bit write), in a counting core
            // a random counter value.
            let write = (self.rng.below(3) == 0).then(|| {
                if self.counter_max > 0 {
                    self.rng.below(self.counter_max as u64 + 1) as u8
                } else {
                    self.rng.chance(0.5) as u8
                }
            });
            crate::side::Access {
                bank,
                addr: addr as u16,
                write,
            }
        });
        crate::side::input(false, readback, fill_bank)
    }

    /// A cycle with no readback and no reset (drains, waits): `fill_bank` only.
    pub fn quiet(&mut self) -> u64 {
        let r = self.rng.next_u64();
        crate::side::input(false, None, self.fill_bank(r))
    }
}

/// Deterministic generator of requests, idle gaps and consumer readiness.
#[derive(Clone, Debug)]
pub struct Traffic {
    shape: TrafficShape,
    rng: Rng,
    consumer_rng: Rng,
    pool: Vec<u128>,
    recent: [u128; 8],
    recent_len: usize,
    next_recent: usize,
    stalled: bool,
}

impl Traffic {
    pub fn new(shape: TrafficShape, seed: u64) -> Traffic {
        let mut rng = Rng::new(seed);
        let pool = (0..shape.pool_size)
            .map(|_| rng.key(shape.key_bits))
            .collect();
        Traffic {
            consumer_rng: Rng::new(seed ^ 0xC0_5E_ED_C0_5E_ED),
            shape,
            rng,
            pool,
            recent: [0; 8],
            recent_len: 0,
            next_recent: 0,
            stalled: false,
        }
    }

    pub fn shape(&self) -> &TrafficShape {
        &self.shape
    }

    fn next_key(&mut self) -> u128 {
        let s = &self.shape;
        let w = s.key_bits;
        let key = if self.recent_len > 0 && self.rng.chance(s.p_recent) {
            self.recent[self.rng.below(self.recent_len as u64) as usize]
        } else if self.rng.chance(s.p_edge) {
            match self.rng.below(3) {
                0 => 0,
                1 => {
                    if w >= 128 {
                        u128::MAX
                    } else {
                        (1u128 << w) - 1
                    }
                }
                _ => 1u128 << self.rng.below(w as u64),
            }
        } else if !self.pool.is_empty() && self.rng.chance(s.p_pool) {
            self.pool[self.rng.below(self.pool.len() as u64) as usize]
        } else {
            self.rng.key(w)
        };
        self.recent[self.next_recent] = key;
        self.next_recent = (self.next_recent + 1) % self.recent.len();
        self.recent_len = (self.recent_len + 1).min(self.recent.len());
        key
    }

    /// The next request and the idle cycles to wait before presenting it.
    pub fn next_request(&mut self) -> (Request, u32) {
        let s = &self.shape;
        let (p_clear, p_insert, p_reserved, p_burst_end, max_gap) = (
            s.p_clear,
            s.p_insert,
            s.p_reserved,
            s.p_burst_end,
            s.max_gap,
        );
        let gap = if max_gap > 0 && self.rng.chance(p_burst_end) {
            1 + self.rng.below(max_gap as u64) as u32
        } else {
            0
        };
        let op = if self.rng.chance(p_clear) {
            2
        } else if self.rng.chance(p_insert) {
            1
        } else if self.rng.chance(p_reserved) {
            3
        } else {
            0
        };
        // A clear's key is ignored by the core; give it a random one anyway so
        // that a core which wrongly uses it is caught.
        let key = self.next_key();
        let tag = self.rng.next_u64() as u8;
        (Request { op, key, tag }, gap)
    }

    /// Whether the response consumer is ready in the next cycle.
    pub fn next_ready(&mut self) -> bool {
        if self.shape.p_stall_start <= 0.0 && !self.stalled {
            return true;
        }
        if self.stalled {
            if self.consumer_rng.chance(self.shape.p_stall_end) {
                self.stalled = false;
            }
        } else if self.consumer_rng.chance(self.shape.p_stall_start) {
            self.stalled = true;
        }
        !self.stalled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_traffic_and_keys_fit() {
        for w in [32, 64, 128] {
            let mut a = Traffic::new(TrafficShape::stress(w), 5);
            let mut b = Traffic::new(TrafficShape::stress(w), 5);
            let mut c = Traffic::new(TrafficShape::stress(w), 6);
            let ra: Vec<_> = (0..2000).map(|_| a.next_request()).collect();
            let rb: Vec<_> = (0..2000).map(|_| b.next_request()).collect();
            let rc: Vec<_> = (0..2000).map(|_| c.next_request()).collect();
            assert_eq!(ra, rb);
            assert_ne!(ra, rc);
            assert!(ra.iter().all(|(r, _)| w == 128 || r.key >> w == 0));
            // The stress shape does what it promises: repeats, gaps, every op.
            let distinct: std::collections::HashSet<u128> = ra.iter().map(|(r, _)| r.key).collect();
            assert!(distinct.len() < 1200, "{} distinct keys", distinct.len());
            assert!(ra.iter().filter(|(_, g)| *g > 0).count() > 100);
            for op in 0..4 {
                assert!(ra.iter().any(|(r, _)| r.op == op) || op == 2, "op {op}");
            }
            let stalls = (0..10_000).filter(|_| !a.next_ready()).count();
            assert!((500..3000).contains(&stalls), "{stalls}");
        }
    }
}
