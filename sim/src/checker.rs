//! The one cycle checker: every port of a core in every cycle against the
//! golden model and the documented timing (hdl::Timing, docs/core.md).
//!
//! It is fed one [`CycleIo`] per cycle (the inputs the core saw and the
//! outputs it gave), whether they come from the streaming Verilator path
//! ([`Checker::check_stream`]), from a bench that drives a core one cycle at a
//! time, or from rust-hdl's simulator ([`Checker::cycle_ports`]). It owns the
//! golden model and applies each accepted operation to it where the hardware
//! commits it (`commit_latency` cycles after acceptance), so that a reset can
//! cancel the operations the contract says it cancels. Per cycle it expects:
//!
//! - `busy`: high in clear windows (a+1 ..= a+clear_cycles after a clear
//!   accepted in a) and from the cycle after a reset rose until
//!   `reset_busy_cycles` after its last cycle (the recount);
//! - `req_ready` = !reset & !rb_req & !busy & (outstanding < FIFO depth);
//! - `resp_valid` when the oldest outstanding response was accepted at least
//!   `latency` cycles ago; while it is high, `resp_hit` and `resp_tag` are that
//!   response's (the sequential golden model's hit, the request's tag);
//! - `rb_valid` exactly `readback_latency` cycles after each `rb_req` that no
//!   reset cancelled, with the golden bit after every operation accepted
//!   before the readback (unspecified while busy); a readback with `rb_write`
//!   (a bit write) then writes `rb_wdata` into the golden bank, in sequence
//!   with the requests, where the core commits it (`commit_latency` cycles
//!   later); dropped while busy and for a bank >= k;
//! - `fill_count` of `fill_bank`: the golden fill `fill_latency` cycles after
//!   each insert or bit write, 0 from `clear_fill_latency` cycles after a clear, 0 after a
//!   reset and then counting up as the recount sweeps (`recount_fill_latency`).
//!
//! A counting core (counter_bits c > 1, contract §7) is checked by the same rules
//! with counters for bits: the golden model is a [`CountingFilter`] (with c = 1 the
//! plain filter, contract §7.7), deletes (op 3) change it, `fill_count` counts non-zero
//! counters and `counter_saturated` counters at S (with the same latencies), a readback
//! answers the counter on `counter_rdata` and its projection bit on `rb_data`, and a
//! bit write is a counter write of `counter_wdata`'s low c bits (contract §7.8).
//!
//! Reset (docs/contract.md §5.1): operations accepted in the
//! `commit_latency - 1` cycles before a reset's first cycle never take effect
//! and are never answered (bit writes too); responses not taken by the end of that cycle are
//! dropped; readbacks issued in it or in the `readback_latency - 1` cycles
//! before are dropped; a clear whose sweep is under way leaves the addresses
//! it has written cleared and the others as they were.
//!
//! The model's state is advanced with what the core actually did (accepts and
//! pops), so one fault is reported where it happens instead of cascading. A
//! mismatch names its cycle and, where one is concerned, the index of the
//! operation (from 0, in acceptance order).

use std::collections::VecDeque;
use std::fmt;

use golden::scrub::{power_up_report, soft_delta, ScrubModel};
use golden::{CountingFilter, Op};

use crate::model::StreamOutput;
use crate::side;
use crate::traffic::Request;

/// One disagreement between the core and the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    /// Index (from 0, in acceptance order) of the operation concerned, if any.
    pub op_index: Option<u64>,
    pub what: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.op_index {
            Some(i) => write!(f, "cycle {}, operation {}: {}", self.cycle, i, self.what),
            None => write!(f, "cycle {}: {}", self.cycle, self.what),
        }
    }
}

/// Every port of the core in one cycle: the inputs it saw (`request` is
/// meaningful while `req_valid` is high) and the outputs it gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleIo {
    pub reset: bool,
    pub req_valid: bool,
    pub request: Request,
    pub resp_ready: bool,
    pub rb_req: bool,
    pub rb_bank: u8,
    pub rb_addr: u16,
    pub rb_write: bool,
    pub rb_wdata: bool,
    pub fill_bank: u8,
    pub req_ready: bool,
    pub resp_valid: bool,
    pub resp_hit: bool,
    pub resp_tag: u8,
    pub rb_valid: bool,
    pub rb_data: bool,
    pub fill_count: u32,
    pub busy: bool,
    /// Counting cores only (0 otherwise): the counter a bit write writes, the
    /// saturated counters of `fill_bank`, the counter a readback read.
    pub counter_wdata: u8,
    pub counter_saturated: u32,
    pub counter_rdata: u8,
    /// The scrub's ports (docs/contract.md §5.2); `scrub_mismatch_seen`: the bits of
    /// `scrub_mismatch` the log recorded (the others are not compared).
    pub scrub_req: bool,
    pub scrub_busy: bool,
    pub scrub_mismatch: u16,
    pub scrub_mismatch_seen: u16,
}

/// An operation accepted and not yet committed: a request (`op` 0..=3), or a
/// bit write ([`BIT_WRITE`], `key` = bank << 24 | address << 8 | value).
#[derive(Clone, Copy, Debug)]
struct Pending {
    op_index: u64,
    accept: u64,
    op: u8,
    key: u128,
}

const BIT_WRITE: u8 = 4;

#[derive(Clone, Copy, Debug)]
struct Outstanding {
    op_index: u64,
    accept: u64,
    op: u8,
    tag: u8,
    /// The golden hit, known once the operation has been applied.
    hit: Option<bool>,
}

#[derive(Clone, Copy, Debug)]
struct Readback {
    issued: u64,
    bank: u8,
    addr: u32,
    /// Issued while busy: rb_data is unspecified.
    unspecified: bool,
    /// The counter (the bit of a plain core) it must read.
    expect: Option<u8>,
}

#[derive(Clone, Copy, Debug)]
enum FillChange {
    /// These banks (bit masks) gained / lost a non-zero counter, and a saturated one.
    Add {
        up: u16,
        down: u16,
        sat_up: u16,
        sat_down: u16,
    },
    Zero,
}

/// The recount after a reset: fill counts of the addresses swept so far.
#[derive(Clone, Debug)]
struct Recount {
    /// The reset's last cycle (so far).
    last_reset: u64,
    counted: u32,
    counts: [u32; 16],
    saturated: [u32; 16],
}

/// How often each situation the contract names for reset was met by a reset,
/// and what the resets took away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResetCoverage {
    /// Resets (rising edges of `reset`).
    pub resets: u64,
    /// ... with operations accepted and not yet committed (cancelled).
    pub with_ops_uncommitted: u64,
    /// ... with responses outstanding (dropped).
    pub with_responses_outstanding: u64,
    /// ... while a clear was sweeping (cut short).
    pub during_clear_sweep: u64,
    /// ... while the recount of an earlier reset was running.
    pub during_recount: u64,
    /// ... with a readback in flight (dropped).
    pub with_readback_pending: u64,
    /// Operations accepted that never took effect (cancelled by a reset).
    pub ops_cancelled: u64,
    /// Responses never delivered (their operations cancelled or not).
    pub responses_lost: u64,
}

impl ResetCoverage {
    pub fn add(&mut self, o: &ResetCoverage) {
        self.resets += o.resets;
        self.with_ops_uncommitted += o.with_ops_uncommitted;
        self.with_responses_outstanding += o.with_responses_outstanding;
        self.during_clear_sweep += o.during_clear_sweep;
        self.during_recount += o.during_recount;
        self.with_readback_pending += o.with_readback_pending;
        self.ops_cancelled += o.ops_cancelled;
        self.responses_lost += o.responses_lost;
    }

    /// Whether every situation was met at least once.
    pub fn complete(&self) -> bool {
        [
            self.with_ops_uncommitted,
            self.with_responses_outstanding,
            self.during_clear_sweep,
            self.during_recount,
            self.with_readback_pending,
        ]
        .iter()
        .all(|&n| n > 0)
    }
}

impl fmt::Display for ResetCoverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} resets: {} with operations uncommitted ({} cancelled), {} with responses outstanding ({} lost), {} during a clear's sweep, {} during a recount, {} with a readback in flight",
            self.resets,
            self.with_ops_uncommitted,
            self.ops_cancelled,
            self.with_responses_outstanding,
            self.responses_lost,
            self.during_clear_sweep,
            self.during_recount,
            self.with_readback_pending
        )
    }
}

/// What the scrubs of a run met (docs/contract.md §5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScrubCoverage {
    /// Scrubs started, ended with a result, ended by a reset.
    pub started: u64,
    pub finished: u64,
    pub cut_by_reset: u64,
    /// Slots taken (addresses read in every bank).
    pub slots: u64,
    /// Inserts and deletes, bit writes, and clears committed while a scrub ran.
    pub ops_during: u64,
    pub bit_writes_during: u64,
    pub clears_during: u64,
    /// Soft changes injected, and scrubs that ended reporting some bank.
    pub soft_changes: u64,
    pub reporting: u64,
}

impl ScrubCoverage {
    pub fn add(&mut self, o: &ScrubCoverage) {
        self.started += o.started;
        self.finished += o.finished;
        self.cut_by_reset += o.cut_by_reset;
        self.slots += o.slots;
        self.ops_during += o.ops_during;
        self.bit_writes_during += o.bit_writes_during;
        self.clears_during += o.clears_during;
        self.soft_changes += o.soft_changes;
        self.reporting += o.reporting;
    }
}

impl fmt::Display for ScrubCoverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} scrubs started, {} finished ({} reporting a bank), {} cut by a reset; {} slots; during scrubs {} operations, {} bit writes and {} clears committed; {} soft changes injected",
            self.started,
            self.finished,
            self.reporting,
            self.cut_by_reset,
            self.slots,
            self.ops_during,
            self.bit_writes_during,
            self.clears_during,
            self.soft_changes
        )
    }
}

/// The reference state and the tally of a run.
#[derive(Clone, Debug)]
pub struct Checker {
    pub timing: hdl::Timing,
    pub golden: CountingFilter,
    /// counter_bits > 1: the counter ports are checked.
    counting: bool,
    /// S = 2^c - 1 (1 for a plain core).
    saturation: u8,
    k: usize,
    bank_mask: u32,
    pending: VecDeque<Pending>,
    outstanding: VecDeque<Outstanding>,
    readbacks: VecDeque<Readback>,
    /// Readbacks answered before every operation ahead of them had committed (a counting
    /// core's commit_latency exceeds readback_latency): what the core answered (rb_data,
    /// counter_rdata, the cycle), checked once their expectation is known.
    answered: VecDeque<(Readback, bool, u8, u64)>,
    /// (cycle the counter shows it, the change, the operation it belongs to).
    fill_queue: VecDeque<(u64, FillChange, Option<u64>)>,
    /// The latest operation whose change the fill counters show.
    fill_op: Option<u64>,
    /// fill_count of each bank as shown now (outside a recount).
    shown: [u32; 16],
    /// counter_saturated of each bank as shown now (outside a recount).
    shown_saturated: [u32; 16],
    recount: Option<Recount>,
    /// Accept cycle of a clear whose sweep has started and not ended.
    sweeping: Option<u64>,
    /// busy is expected high in cycles busy_from ..= busy_until.
    busy_from: u64,
    busy_until: u64,
    prev_reset: bool,
    next_op: u64,
    /// Cycle the next log must start at.
    next_cycle: Option<u64>,
    pub mismatches: u64,
    pub first: Vec<Mismatch>,
    pub keep: usize,
    pub cycles: u64,
    pub responses: u64,
    pub hits: u64,
    /// Responses to queries (op 0 and 3) and how many of them hit.
    pub queries: u64,
    pub query_hits: u64,
    /// Readbacks whose bit was compared with the golden model.
    pub readbacks_checked: u64,
    /// Bit writes issued while not busy to a bank of the core (committed unless a reset cancelled them).
    pub bit_writes: u64,
    /// What the counting situations of contract §7 happened how often (counting cores).
    pub counting_events: CountingEvents,
    pub resets: ResetCoverage,
    /// The scrub's reference (golden::scrub), whether `scrub_busy` is high now, and the
    /// cycle its scrub ends (its last slot + scrub_end_latency) once known.
    pub scrub: ScrubModel,
    scrub_active: bool,
    scrub_end: Option<u64>,
    pub scrubs: ScrubCoverage,
    /// The core was generated with the scrub (hdl::CoreConfig::scrub); without it
    /// `scrub_req` is ignored (no scrub ever runs, nothing is reported).
    pub scrub_built: bool,
    /// The power-up check's report (docs/contract.md §5.3), shown when the recount after
    /// the first reset has completed ([`Checker::expect_power_up`]).
    power_up: Option<(u16, u64)>,
    /// The periodic scrub's period (hdl::CoreConfig::scrub_every), and the last cycle of
    /// the last reset (its ticks are r + N, r + 2N, ...).
    pub scrub_every: Option<u32>,
    last_reset: u64,
}

impl Checker {
    /// A checker for a core that has just been reset (its last reset cycle is
    /// `last_reset`) and holds `golden`'s banks (empty, or a preloaded image):
    /// the recount is expected to run, and every cycle from `last_reset + 1`.
    pub fn after_reset(
        timing: hdl::Timing,
        golden: impl Into<CountingFilter>,
        last_reset: u64,
    ) -> Checker {
        let golden: CountingFilter = golden.into();
        let cfg = *golden.config();
        let mut c = Checker {
            timing,
            counting: cfg.counter_bits > 1,
            saturation: golden.saturation(),
            k: cfg.k as usize,
            bank_mask: cfg.bank_size() - 1,
            golden,
            pending: VecDeque::new(),
            outstanding: VecDeque::new(),
            readbacks: VecDeque::new(),
            answered: VecDeque::new(),
            fill_queue: VecDeque::new(),
            fill_op: None,
            shown: [0; 16],
            shown_saturated: [0; 16],
            recount: None,
            sweeping: None,
            busy_from: 0,
            busy_until: 0,
            prev_reset: true,
            next_op: 0,
            next_cycle: Some(last_reset + 1),
            mismatches: 0,
            first: Vec::new(),
            keep: 20,
            cycles: 0,
            responses: 0,
            hits: 0,
            queries: 0,
            query_hits: 0,
            readbacks_checked: 0,
            bit_writes: 0,
            counting_events: CountingEvents::default(),
            resets: ResetCoverage::default(),
            scrub: ScrubModel::new(cfg.k as usize, cfg.bank_size()),
            scrub_active: false,
            scrub_end: None,
            scrubs: ScrubCoverage::default(),
            scrub_built: false,
            power_up: None,
            scrub_every: None,
            last_reset,
        };
        c.start_recount(last_reset);
        c.busy_from = last_reset.saturating_sub(1);
        c
    }

    /// An empty core's checker (see [`Checker::after_reset`]).
    pub fn new(timing: hdl::Timing, params: hdl::CoreParams, last_reset: u64) -> Checker {
        Self::after_reset(
            timing,
            CountingFilter::from_config(params).expect("validated parameters"),
            last_reset,
        )
    }

    pub fn report(&mut self, m: Mismatch) {
        self.mismatches += 1;
        if self.first.len() < self.keep {
            self.first.push(m);
        }
    }

    /// Operations accepted so far.
    pub fn accepted(&self) -> u64 {
        self.next_op
    }
    /// Responses still expected.
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }
    /// The last cycle `busy` is expected high (a clear window or a recount).
    pub fn busy_until(&self) -> u64 {
        self.busy_until
    }
    /// Whether `busy` is expected high in `cycle`.
    pub fn busy_at(&self, cycle: u64) -> bool {
        self.busy_from <= cycle && cycle <= self.busy_until
    }
    /// Nothing in flight: no response or readback expected, no operation to
    /// commit, not busy at `cycle`.
    pub fn quiet_at(&self, cycle: u64) -> bool {
        self.outstanding.is_empty()
            && self.readbacks.is_empty()
            && self.answered.is_empty()
            && self.pending.is_empty()
            && !self.busy_at(cycle)
    }

    /// The next cycle the checker expects (logs are contiguous).
    pub fn next_cycle(&self) -> Option<u64> {
        self.next_cycle
    }

    fn start_recount(&mut self, last_reset: u64) {
        self.recount = Some(Recount {
            last_reset,
            counted: 0,
            counts: [0; 16],
            saturated: [0; 16],
        });
        self.busy_until = last_reset + self.timing.reset_busy_cycles as u64;
        self.last_reset = last_reset;
        // A reset before the power-up check showed its result: the next recount checks.
        if let Some((_, at)) = &mut self.power_up {
            *at = self.busy_until + 4;
        }
    }

    /// Sets the expected bit of the readbacks issued up to cycle `upto`.
    fn resolve_readbacks(&mut self, upto: u64) {
        for rb in self.readbacks.iter_mut() {
            if rb.issued > upto {
                break;
            }
            if rb.expect.is_none() && !rb.unspecified {
                rb.expect = Some(
                    self.golden
                        .counter(rb.bank as usize, rb.addr & self.bank_mask)
                        .unwrap_or(0),
                );
            }
        }
        while self
            .answered
            .front()
            .is_some_and(|(rb, ..)| rb.issued <= upto)
        {
            let (mut rb, rb_data, counter_rdata, cycle) =
                self.answered.pop_front().expect("checked above");
            if !rb.unspecified {
                rb.expect = Some(
                    self.golden
                        .counter(rb.bank as usize, rb.addr & self.bank_mask)
                        .unwrap_or(0),
                );
            }
            self.check_readback(&rb, rb_data, counter_rdata, cycle);
        }
    }

    /// Compares what the core answered to a readback with its expectation, if any.
    fn check_readback(&mut self, r: &Readback, rb_data: bool, counter_rdata: u8, c: u64) {
        if let Some(value) = r.expect {
            self.readbacks_checked += 1;
            let bit = value != 0;
            if rb_data != bit || (self.counting && counter_rdata != value) {
                self.report(Mismatch {
                    cycle: c,
                    op_index: None,
                    what: format!(
                        "rb_data is {}{} for the readback of bank {} address {} issued in cycle {}, golden {}{} (after {} operations)",
                        rb_data as u8,
                        if self.counting { format!(" (counter_rdata {counter_rdata})") } else { String::new() },
                        r.bank,
                        r.addr & self.bank_mask,
                        r.issued,
                        bit as u8,
                        if self.counting { format!(" (counter {value})") } else { String::new() },
                        self.next_op
                    ),
                });
            }
        }
    }

    /// Applies the operation the hardware commits now.
    fn commit(&mut self, p: Pending) {
        if p.op == BIT_WRITE {
            // Its own read comes first.
            self.resolve_readbacks(p.accept);
            let (bank, addr) = ((p.key >> 24) as usize, (p.key >> 8) as u32 & 0xffff);
            let value = if self.counting {
                p.key as u8 & self.saturation
            } else {
                p.key as u8 & 1
            };
            let change = self.changing(|g| {
                g.write_counter(bank, addr, value)
                    .expect("bank < k and address < bank size, checked when issued");
            });
            if let Some(change) = change {
                self.fill_queue.push_back((
                    p.accept + self.timing.fill_latency as u64,
                    change,
                    None,
                ));
            }
            self.scrubs.bit_writes_during += self.scrub_active as u64;
            return;
        }
        let first = self
            .outstanding
            .front()
            .map(|o| o.op_index)
            .unwrap_or(p.op_index);
        let slot = (p.op_index - first) as usize;
        if p.op == 2 {
            self.fill_queue.push_back((
                p.accept + self.timing.clear_fill_latency as u64,
                FillChange::Zero,
                Some(p.op_index),
            ));
            self.sweeping = Some(p.accept);
            self.scrub.clear();
            self.scrubs.clears_during += self.scrub_active as u64;
            return;
        }
        let op = Op::decode(p.op, p.key);
        if self.counting {
            self.count_event(op);
        }
        if matches!(op, Op::Insert(_) | Op::Delete(_)) {
            self.scrubs.ops_during += self.scrub_active as u64;
        }
        let mut hit = false;
        let change = self.changing(|g| hit = g.apply(op).unwrap_or(false));
        if let Some(change) = change {
            self.fill_queue.push_back((
                p.accept + self.timing.fill_latency as u64,
                change,
                Some(p.op_index),
            ));
        }
        if let Some(o) = self.outstanding.get_mut(slot) {
            if o.op_index == p.op_index {
                o.hit = Some(hit);
            }
        }
    }

    /// Applies `f` to the golden model; the change of the counts it made, if any.
    fn changing(&mut self, f: impl FnOnce(&mut CountingFilter)) -> Option<FillChange> {
        let fill: [u32; 16] = std::array::from_fn(|b| self.golden.fill_of(b));
        let sat: [u32; 16] = std::array::from_fn(|b| self.golden.saturated_of(b));
        f(&mut self.golden);
        let (mut up, mut down, mut sat_up, mut sat_down) = (0u16, 0u16, 0u16, 0u16);
        for b in 0..self.k {
            let (f, s) = (self.golden.fill_of(b), self.golden.saturated_of(b));
            up |= ((f > fill[b]) as u16) << b;
            down |= ((f < fill[b]) as u16) << b;
            sat_up |= ((s > sat[b]) as u16) << b;
            sat_down |= ((s < sat[b]) as u16) << b;
        }
        (up | down | sat_up | sat_down != 0).then_some(FillChange::Add {
            up,
            down,
            sat_up,
            sat_down,
        })
    }

    /// Tallies the counting situations `op` meets, before it is applied.
    fn count_event(&mut self, op: Op) {
        let key = match op {
            Op::Insert(key) | Op::Delete(key) => key,
            _ => return,
        };
        let addrs = match self.golden.addresses(key) {
            Ok(a) => a,
            Err(_) => return,
        };
        let counters: Vec<u8> = addrs
            .iter()
            .enumerate()
            .map(|(b, &a)| self.golden.counter(b, a).unwrap_or(0))
            .collect();
        let present = counters.iter().all(|&v| v != 0);
        let saturated = counters.contains(&self.saturation);
        let e = &mut self.counting_events;
        match op {
            Op::Insert(_) => {
                e.inserts += 1;
                e.inserts_reaching_saturation +=
                    counters.iter().any(|&v| v == self.saturation - 1) as u64;
                e.inserts_at_saturation += saturated as u64;
            }
            _ => {
                e.deletes += 1;
                if present {
                    e.deletes_carried_out += 1;
                    e.deletes_after_saturation += saturated as u64;
                    e.deletes_to_zero += counters.contains(&1) as u64;
                } else {
                    e.deletes_of_absent += 1;
                }
            }
        }
    }

    /// One cycle: what the hardware has done by now, then the outputs it shows, then
    /// the inputs it takes.
    #[inline]
    pub fn cycle(&mut self, c: u64, io: &CycleIo) {
        self.cycles += 1;
        self.advance(c);
        let busy = self.busy_at(c);
        self.check_handshakes(c, io, busy);
        self.check_readback_port(c, io);
        self.check_fills(c, io);
        self.check_scrub(c, io);
        self.take_inputs(c, io, busy);
    }

    /// A soft change (docs/contract.md §5.2) injected into the core between two
    /// cycles: bank `bank`'s bit (counter) at `addr` is now `value`, with no operation
    /// and no change of its fill counter. Call with no operation pending, no clear or
    /// recount in progress. Returns the change's sign (+1 zero to non-zero, -1 back, 0).
    pub fn soft_change(&mut self, bank: usize, addr: u32, value: u8) -> i64 {
        assert!(
            self.pending.is_empty() && self.sweeping.is_none() && self.recount.is_none(),
            "a soft change is injected with no operation pending, no clear or recount running"
        );
        let before = self
            .golden
            .write_counter(bank, addr, value)
            .expect("bank < k and address < bank size");
        let delta = soft_delta(before, value);
        self.scrub.soft_change(bank, addr, delta);
        self.scrubs.soft_changes += 1;
        delta
    }

    /// The core is right after its first reset since configuration and generated with
    /// the scrub (a plain core): its power-up check (docs/contract.md §5.3) compares the
    /// fills the recount finds (the golden banks now, no operation being accepted before
    /// the recount ends) with `image`'s.
    pub fn expect_power_up(&mut self, image: &[u32]) {
        // Shown 3 cycles after `busy` falls (busy_until: the recount's last busy cycle).
        let at = self.busy_until + 4;
        self.power_up = Some((power_up_report(image, &self.golden.fill()), at));
    }

    /// Whether a scrub is running now (`scrub_busy` as expected).
    pub fn scrub_running(&self) -> bool {
        self.scrub_active
    }

    /// `scrub_busy` and `scrub_mismatch` in cycle `c`.
    #[inline]
    fn check_scrub(&mut self, c: u64, io: &CycleIo) {
        if io.scrub_busy != self.scrub_active {
            self.report(Mismatch {
                cycle: c,
                op_index: None,
                what: format!(
                    "scrub_busy is {}, expected {} ({})",
                    io.scrub_busy as u8,
                    self.scrub_active as u8,
                    if self.scrub_active {
                        "a scrub is running"
                    } else {
                        "no scrub running"
                    }
                ),
            });
        }
        let expect = self.scrub.mismatch();
        if (io.scrub_mismatch ^ expect) & io.scrub_mismatch_seen != 0 {
            self.report(Mismatch {
                cycle: c,
                op_index: None,
                what: format!(
                    "scrub_mismatch is {:#06x}, expected {:#06x} (soft changes seen by the last scrub, per bank: {:?}; offsets now {:?})",
                    io.scrub_mismatch & io.scrub_mismatch_seen,
                    expect & io.scrub_mismatch_seen,
                    self.scrub.mismatch(),
                    self.scrub.offsets()
                ),
            });
        }
    }

    /// The periodic scrub requests a scrub in cycle `c` (docs/contract.md §5.2).
    #[inline]
    fn scrub_tick(&self, c: u64) -> bool {
        self.scrub_every
            .is_some_and(|n| c > self.last_reset && (c - self.last_reset).is_multiple_of(n as u64))
    }

    /// The scrub's step in cycle `c` (not a reset cycle): a slot if the cycle is free,
    /// else a start on `scrub_req`.
    #[inline]
    fn scrub_inputs(&mut self, c: u64, io: &CycleIo, busy: bool) {
        if self.scrub_active {
            let accepted = io.req_valid && io.req_ready;
            let free = !(io.rb_req || accepted || busy);
            if free && self.scrub_end.is_none() {
                self.scrubs.slots += 1;
                if self.scrub.slot() {
                    self.scrub_end = Some(c + self.timing.scrub_end_latency as u64);
                }
            }
        } else if (io.scrub_req || self.scrub_tick(c)) && self.scrub_built {
            self.scrub.start();
            self.scrub_active = true;
            self.scrubs.started += 1;
        }
    }

    /// Commits, the end of a clear's sweep, fill counter updates, the recount and
    /// readback expectations due by cycle `c`.
    #[inline]
    fn advance(&mut self, c: u64) {
        let t = self.timing;
        while let Some(&p) = self.pending.front() {
            if p.accept + t.commit_latency as u64 > c {
                break;
            }
            self.pending.pop_front();
            self.commit(p);
        }
        if let Some(a) = self.sweeping {
            // The sweep's last write (address 2^b - 1) is at the end of
            // a + commit_latency + 2^b - 1: busy's last cycle in a plain core, two
            // cycles later in a counting core (its write-back is two stages later).
            if a + t.commit_latency as u64 + self.bank_mask as u64 <= c {
                self.golden.clear();
                self.sweeping = None;
            }
        }
        while let Some(&(at, change, op)) = self.fill_queue.front() {
            if at > c {
                break;
            }
            self.fill_queue.pop_front();
            if op.is_some() {
                self.fill_op = op;
            }
            match change {
                FillChange::Add {
                    up,
                    down,
                    sat_up,
                    sat_down,
                } => {
                    for b in 0..self.k {
                        self.shown[b] += (up >> b) as u32 & 1;
                        self.shown[b] -= (down >> b) as u32 & 1;
                        self.shown_saturated[b] += (sat_up >> b) as u32 & 1;
                        self.shown_saturated[b] -= (sat_down >> b) as u32 & 1;
                    }
                }
                FillChange::Zero => {
                    self.shown = [0; 16];
                    self.shown_saturated = [0; 16];
                }
            }
        }
        if let Some(r) = &mut self.recount {
            let lag = t.recount_fill_latency as u64 - 1;
            let size = self.bank_mask + 1;
            let target = if c > r.last_reset + lag {
                (c - r.last_reset - lag).min(size as u64) as u32
            } else {
                0
            };
            while r.counted < target {
                for b in 0..self.k {
                    let v = self.golden.counter(b, r.counted).unwrap_or(0);
                    r.counts[b] += (v != 0) as u32;
                    r.saturated[b] += (v == self.saturation) as u32;
                }
                r.counted += 1;
            }
            if r.counted == size {
                self.shown = r.counts;
                self.shown_saturated = r.saturated;
                self.recount = None;
            }
        }
        if let Some(upto) = c.checked_sub(t.commit_latency as u64) {
            self.resolve_readbacks(upto);
        }
        if let Some((report, at)) = self.power_up {
            if c == at {
                self.scrub.power_up(report);
                self.power_up = None;
            }
        }
        if self.scrub_end == Some(c) {
            let m = self.scrub.finish();
            self.scrubs.finished += 1;
            self.scrubs.reporting += (m != 0) as u64;
            self.scrub_active = false;
            self.scrub_end = None;
        }
    }

    /// `busy`, `req_ready`, `resp_valid` and the response presented in cycle `c`.
    #[inline]
    fn check_handshakes(&mut self, c: u64, io: &CycleIo, busy: bool) {
        let t = self.timing;
        if io.busy != busy {
            self.report(Mismatch {
                cycle: c,
                op_index: None,
                what: format!(
                    "busy is {}, expected {} ({})",
                    io.busy as u8,
                    busy as u8,
                    if busy {
                        "inside a clear window or a reset's recount"
                    } else {
                        "no clear or recount in progress"
                    }
                ),
            });
        }
        let expect_ready = !io.reset
            && !io.rb_req
            && !busy
            && (self.outstanding.len() as u32) < t.response_fifo_depth;
        if io.req_ready != expect_ready {
            self.report(Mismatch {
                cycle: c,
                op_index: Some(self.next_op),
                what: format!(
                    "req_ready is {}, expected {} ({} responses outstanding of {}, {}{}{})",
                    io.req_ready as u8,
                    expect_ready as u8,
                    self.outstanding.len(),
                    t.response_fifo_depth,
                    if busy { "busy" } else { "not busy" },
                    if io.rb_req {
                        ", a readback in this cycle"
                    } else {
                        ""
                    },
                    if io.reset { ", reset high" } else { "" }
                ),
            });
        }
        let head = self.outstanding.front().copied();
        let expect_valid = head.is_some_and(|p| p.accept + t.latency as u64 <= c);
        if io.resp_valid != expect_valid {
            self.report(Mismatch {
                cycle: c,
                op_index: head.map(|p| p.op_index),
                what: match head {
                    Some(p) => format!(
                        "resp_valid is {}, expected {} (oldest outstanding accepted in cycle {}, latency {})",
                        io.resp_valid as u8, expect_valid as u8, p.accept, t.latency
                    ),
                    None => format!("resp_valid is {} with no request outstanding", io.resp_valid as u8),
                },
            });
        }
        if io.resp_valid && expect_valid {
            let p = head.expect("expect_valid implies a head");
            let hit = p.hit.unwrap_or(false);
            if io.resp_hit != hit || io.resp_tag != p.tag {
                self.report(Mismatch {
                    cycle: c,
                    op_index: Some(p.op_index),
                    what: format!(
                        "response (hit {}, tag {:#04x}) to {} accepted in cycle {}, expected (hit {}, tag {:#04x}){}",
                        io.resp_hit as u8,
                        io.resp_tag,
                        op_name(p.op),
                        p.accept,
                        hit as u8,
                        p.tag,
                        if io.resp_ready { "" } else { " (presented, not taken)" }
                    ),
                });
            }
            if io.resp_ready {
                self.outstanding.pop_front();
                self.responses += 1;
                self.hits += hit as u64;
                if p.op == 0 || p.op == 3 {
                    self.queries += 1;
                    self.query_hits += io.resp_hit as u64;
                }
            }
        }
    }

    /// `rb_valid` and the readback answered in cycle `c`.
    #[inline]
    fn check_readback_port(&mut self, c: u64, io: &CycleIo) {
        let t = self.timing;
        let rb_due = self
            .readbacks
            .front()
            .is_some_and(|r| r.issued + t.readback_latency as u64 <= c);
        if io.rb_valid != rb_due {
            self.report(Mismatch {
                cycle: c,
                op_index: None,
                what: match self.readbacks.front() {
                    Some(r) if rb_due => {
                        format!("no rb_valid for the readback issued in cycle {}", r.issued)
                    }
                    _ => format!(
                        "rb_valid with no readback issued {} cycles before",
                        t.readback_latency
                    ),
                },
            });
        }
        if rb_due {
            let r = self
                .readbacks
                .pop_front()
                .expect("rb_due implies a readback");
            if io.rb_valid {
                if r.expect.is_none() && !r.unspecified {
                    self.answered
                        .push_back((r, io.rb_data, io.counter_rdata, c));
                } else {
                    self.check_readback(&r, io.rb_data, io.counter_rdata, c);
                }
            }
        }
    }

    /// `fill_count` (and a counting core's `counter_saturated`) of `fill_bank` in cycle `c`.
    #[inline]
    fn check_fills(&mut self, c: u64, io: &CycleIo) {
        let bank = io.fill_bank as usize;
        let (fill, saturated) = if bank >= self.k {
            (0, 0)
        } else if let Some(r) = &self.recount {
            (r.counts[bank], r.saturated[bank])
        } else {
            (self.shown[bank], self.shown_saturated[bank])
        };
        if self.counting && io.counter_saturated != saturated {
            let op_index = if self.recount.is_some() {
                None
            } else {
                self.fill_op
            };
            self.report(Mismatch {
                cycle: c,
                op_index,
                what: format!(
                    "counter_saturated of bank {bank} is {}, expected {saturated}{}",
                    io.counter_saturated,
                    if self.recount.is_some() {
                        " (recount after reset)"
                    } else {
                        " (counting every operation up to this one)"
                    }
                ),
            });
        }
        if io.fill_count != fill {
            // Outside a recount the operation named is the latest one whose
            // change the counter shows now.
            let op_index = if self.recount.is_some() {
                None
            } else {
                self.fill_op
            };
            self.report(Mismatch {
                cycle: c,
                op_index,
                what: format!(
                    "fill_count of bank {bank} is {}, expected {fill}{}",
                    io.fill_count,
                    if self.recount.is_some() {
                        " (recount after reset)"
                    } else {
                        " (counting every operation up to this one)"
                    }
                ),
            });
        }
    }

    /// The inputs of cycle `c`: a reset, a readback (and its bit write), a request taken.
    #[inline]
    fn take_inputs(&mut self, c: u64, io: &CycleIo, busy: bool) {
        let t = self.timing;
        if io.reset {
            if !self.prev_reset {
                self.resets.resets += 1;
                self.resets.with_ops_uncommitted += !self.pending.is_empty() as u64;
                self.resets.with_responses_outstanding += !self.outstanding.is_empty() as u64;
                self.resets.during_clear_sweep += self.sweeping.is_some() as u64;
                self.resets.during_recount += (self.recount.is_some() && busy) as u64;
                self.resets.with_readback_pending += !self.readbacks.is_empty() as u64;
            }
            self.resets.ops_cancelled += self.pending.len() as u64;
            self.resets.responses_lost += self.outstanding.len() as u64;
            self.prev_reset = true;
            self.pending.clear();
            self.outstanding.clear();
            self.readbacks.clear();
            self.fill_queue.clear();
            self.fill_op = None;
            if let Some(a) = self.sweeping.take() {
                // Writes up to and including this cycle's happened.
                let last = c - a - t.commit_latency as u64;
                self.partial_clear(last as usize + 1);
            }
            if !busy {
                self.busy_from = c + 1;
            }
            self.start_recount(c);
            self.scrubs.cut_by_reset += self.scrub_active as u64;
            self.scrub.reset();
            self.scrub_active = false;
            self.scrub_end = None;
            return;
        }
        self.prev_reset = false;
        self.scrub_inputs(c, io, busy);
        if io.rb_req {
            self.readbacks.push_back(Readback {
                issued: c,
                bank: io.rb_bank,
                addr: io.rb_addr as u32,
                unspecified: busy,
                expect: None,
            });
            // A bit write: dropped while busy and for a bank >= k (docs/core.md).
            if io.rb_write && !busy && (io.rb_bank as usize) < self.k {
                let value = if self.counting {
                    io.counter_wdata
                } else {
                    io.rb_wdata as u8
                };
                let key = (io.rb_bank as u128) << 24
                    | ((io.rb_addr as u32 & self.bank_mask) as u128) << 8
                    | value as u128;
                self.pending.push_back(Pending {
                    op_index: u64::MAX,
                    accept: c,
                    op: BIT_WRITE,
                    key,
                });
                self.bit_writes += 1;
            }
        }
        if io.req_valid && io.req_ready {
            let r = io.request;
            let op = r.op & 3;
            let op_index = self.next_op;
            self.next_op += 1;
            self.outstanding.push_back(Outstanding {
                op_index,
                accept: c,
                op,
                tag: r.tag,
                hit: (op == 2).then_some(false),
            });
            self.pending.push_back(Pending {
                op_index,
                accept: c,
                op,
                key: r.key,
            });
            if op == 2 {
                self.busy_from = c + 1;
                self.busy_until = c + t.clear_cycles as u64;
            }
        }
    }

    /// Clears addresses 0 .. n of every bank (a clear cut short by a reset).
    fn partial_clear(&mut self, n: usize) {
        let size = self.golden.config().bank_size() as usize;
        if n >= size {
            self.golden.clear();
            return;
        }
        for b in 0..self.k {
            for a in 0..n {
                self.golden
                    .write_counter(b, a as u32, 0)
                    .expect("bank < k, address < bank size");
            }
        }
    }

    fn check_start(&mut self, start: u64, cycles: u64) {
        if let Some(expect) = self.next_cycle {
            if start != expect {
                self.report(Mismatch {
                    cycle: start,
                    op_index: None,
                    what: format!("log starts at cycle {start}, expected {expect} (harness error)"),
                });
            }
        }
        self.next_cycle = Some(start + cycles);
    }

    /// Checks one streamed log (every cycle of it): `requests[i]` is the log's
    /// i-th item; `side_in` the side inputs applied per cycle (`side` module).
    pub fn check_stream(&mut self, requests: &[Request], side_in: &[u64], out: &StreamOutput) {
        self.check_start(out.start_cycle, out.cycles);
        let mut item = 0usize;
        for c in 0..out.cycles as usize {
            let f = out.flags[c];
            let si = side_in.get(c).copied().unwrap_or(0);
            let so = out.side_out.get(c).copied().unwrap_or(0);
            let present = f & 1 != 0;
            let request = if present {
                requests.get(item).copied().unwrap_or_default()
            } else {
                Request::default()
            };
            let io = CycleIo {
                reset: si & 1 != 0,
                req_valid: present,
                request,
                resp_ready: f & 8 != 0,
                rb_req: si >> 1 & 1 != 0,
                rb_bank: (si >> 2 & 15) as u8,
                rb_addr: (si >> 6) as u16,
                fill_bank: (si >> 22 & 15) as u8,
                rb_write: si >> 26 & 1 != 0,
                rb_wdata: si >> 27 & 1 != 0,
                req_ready: f & 2 != 0,
                resp_valid: f & 4 != 0,
                busy: so & 1 != 0,
                rb_valid: so >> 1 & 1 != 0,
                rb_data: so >> 2 & 1 != 0,
                resp_hit: so >> 3 & 1 != 0,
                resp_tag: (so >> 4) as u8,
                fill_count: (so >> 12) as u32 & 0x1ffff,
                counter_wdata: (si >> 28) as u8,
                counter_saturated: (so >> 29) as u32 & 0x1ffff,
                counter_rdata: (so >> 46) as u8,
                scrub_req: si & side::SCRUB_REQ != 0,
                scrub_busy: so >> 54 & 1 != 0,
                scrub_mismatch: (so >> 55) as u16,
                scrub_mismatch_seen: side::SCRUB_MISMATCH_SEEN,
            };
            let cycle = out.start_cycle + c as u64;
            if present && io.req_ready {
                if out.accept_cycle.get(item) != Some(&cycle) {
                    self.report(Mismatch {
                        cycle,
                        op_index: Some(self.next_op),
                        what: "accept log out of step with the cycle log (harness error)".into(),
                    });
                }
                item += 1;
            }
            self.cycle(cycle, &io);
        }
    }

    /// One cycle from named port values (`get(name)` reads an input or an
    /// output of that cycle): for benches that step a core one cycle at a time.
    pub fn cycle_ports(&mut self, cycle: u64, get: &dyn Fn(&str) -> u128) {
        let bit = |n: &str| get(n) & 1 == 1;
        let io = CycleIo {
            reset: bit("reset"),
            req_valid: bit("req_valid"),
            request: Request {
                op: get("req_op") as u8,
                key: get("req_key"),
                tag: get("req_tag") as u8,
            },
            resp_ready: bit("resp_ready"),
            rb_req: bit("rb_req"),
            rb_bank: get("rb_bank") as u8,
            rb_addr: get("rb_addr") as u16,
            rb_write: bit("rb_write"),
            rb_wdata: bit("rb_wdata"),
            fill_bank: get("fill_bank") as u8,
            req_ready: bit("req_ready"),
            resp_valid: bit("resp_valid"),
            resp_hit: bit("resp_hit"),
            resp_tag: get("resp_tag") as u8,
            rb_valid: bit("rb_valid"),
            rb_data: bit("rb_data"),
            fill_count: get("fill_count") as u32,
            busy: bit("busy"),
            counter_wdata: if self.counting {
                get("counter_wdata") as u8
            } else {
                0
            },
            counter_saturated: if self.counting {
                get("counter_saturated") as u32
            } else {
                0
            },
            counter_rdata: if self.counting {
                get("counter_rdata") as u8
            } else {
                0
            },
            scrub_req: bit("scrub_req"),
            scrub_busy: bit("scrub_busy"),
            scrub_mismatch: get("scrub_mismatch") as u16,
            scrub_mismatch_seen: 0xffff,
        };
        self.check_start(cycle, 1);
        self.cycle(cycle, &io);
    }
}

pub fn op_name(op: u8) -> &'static str {
    match op {
        0 => "query",
        1 => "insert",
        2 => "clear",
        _ => "op 3 (delete; a query in a plain core)",
    }
}

/// How often the situations of contract §7 that a counting filter's tests must reach
/// happened, counted on the golden model before each operation was applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingEvents {
    pub inserts: u64,
    /// Inserts that took a counter to S (it saturates).
    pub inserts_reaching_saturation: u64,
    /// Inserts that found a counter already at S (it stays).
    pub inserts_at_saturation: u64,
    pub deletes: u64,
    /// Deletes that found every counter non-zero (answered 1, decremented).
    pub deletes_carried_out: u64,
    /// Deletes that found a counter at 0 (answered 0, nothing changed).
    pub deletes_of_absent: u64,
    /// Deletes carried out with a counter at S (that counter stays).
    pub deletes_after_saturation: u64,
    /// Deletes carried out that took a counter from 1 to 0.
    pub deletes_to_zero: u64,
}

impl CountingEvents {
    pub fn add(&mut self, o: &CountingEvents) {
        self.inserts += o.inserts;
        self.inserts_reaching_saturation += o.inserts_reaching_saturation;
        self.inserts_at_saturation += o.inserts_at_saturation;
        self.deletes += o.deletes;
        self.deletes_carried_out += o.deletes_carried_out;
        self.deletes_of_absent += o.deletes_of_absent;
        self.deletes_after_saturation += o.deletes_after_saturation;
        self.deletes_to_zero += o.deletes_to_zero;
    }
}

impl fmt::Display for CountingEvents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} inserts ({} reaching saturation, {} at saturation), {} deletes ({} carried out, {} of absent keys, {} after saturation, {} to zero)",
            self.inserts,
            self.inserts_reaching_saturation,
            self.inserts_at_saturation,
            self.deletes,
            self.deletes_carried_out,
            self.deletes_of_absent,
            self.deletes_after_saturation,
            self.deletes_to_zero
        )
    }
}
