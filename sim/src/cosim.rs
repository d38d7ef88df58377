//! The co-simulation harness: seeded traffic through a Verilated core (its
//! RTL or a netlist of it), every port of every cycle checked against the
//! golden model by the one [`Checker`], and at checkpoints the whole memory
//! image read back through the readback port (each bit checked like any
//! other readback) with the fill counters compared in the same cycles.
//!
//! Every cycle the core runs after its start-up reset goes through the
//! checker: traffic, drains, waits for a clear or a recount to end, image
//! readbacks. Between checkpoints the traffic itself keeps reading random
//! bits back and cycling `fill_bank`, so the image and the fill counters are
//! compared continually, not only at checkpoints, and random resets are
//! applied (`TrafficShape::p_reset`).
//!
//! [`CoSim::run`] splits the work over two threads: the calling thread only
//! drives Verilator (whole batches per call into C++); a worker thread
//! generates the traffic and checks the simulator's cycle logs as they come
//! back, applying the operations to the golden model in the checker.
//! [`CoSim::run_inline`] does the same batches in the calling thread alone,
//! and [`run_sharded`] runs one of those per CPU on independent cores (what
//! `bloom sim` does by default: the Verilated model is the slower half, so
//! two single-threaded shards keep both CPUs busier than one stream split
//! over two threads). The simpler single-threaded calls
//! ([`CoSim::run_requests`], [`CoSim::drain`], [`CoSim::check_image`]) serve
//! tests and the false-positive measurement.

use std::sync::mpsc;
use std::time::Instant;

use golden::CountingFilter;

use crate::checker::{Checker, CountingEvents, Mismatch, ResetCoverage, ScrubCoverage};
use crate::core::{push_request, request_words, VerilatedCore};
use crate::model::StreamOutput;
use crate::side;
use crate::traffic::{Consumer, Request, SideTraffic, Traffic, TrafficShape};
use crate::SimError;

/// What to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub ops: u64,
    pub traffic_seed: u64,
    pub shape: TrafficShape,
    /// Operations handed to the simulator per call.
    pub batch: usize,
    /// Read the whole memory image back (and compare it and the fill counters)
    /// after about this many operations, and always at the end; 0 = only at
    /// the end.
    pub checkpoint_every: u64,
}

impl RunOptions {
    pub fn stress(ops: u64, key_bits: u32, traffic_seed: u64) -> RunOptions {
        RunOptions {
            ops,
            traffic_seed,
            shape: TrafficShape::stress(key_bits),
            batch: 1 << 14,
            checkpoint_every: 0,
        }
    }
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    pub ops: u64,
    /// Cycles of request/response traffic (the throughput denominator).
    pub traffic_cycles: u64,
    /// All cycles of the model so far, including resets, drains, readbacks.
    pub total_cycles: u64,
    /// Cycles the checker compared (every port).
    pub cycles_checked: u64,
    pub mismatches: u64,
    pub first_mismatches: Vec<Mismatch>,
    pub image_checks: u32,
    pub responses: u64,
    pub queries: u64,
    pub query_hits: u64,
    /// Readbacks (traffic's and image checks') whose bit was compared.
    pub readbacks_checked: u64,
    pub resets: ResetCoverage,
    /// What the scrubs met (docs/contract.md §5.2).
    pub scrubs: ScrubCoverage,
    /// Counting cores: how often saturation, deletes of absent keys, ... happened.
    pub counting: CountingEvents,
    pub seconds: f64,
    /// Time the worker thread spent on traffic, golden model and checking.
    pub worker_seconds: f64,
    /// Time the calling thread spent inside the Verilated model.
    pub simulator_seconds: f64,
    /// CPU time of the simulator thread and of the worker thread during the
    /// run (Linux; None elsewhere). On a loaded machine these, not the wall
    /// time, say what the run costs.
    pub simulator_cpu_seconds: Option<f64>,
    pub worker_cpu_seconds: Option<f64>,
}

impl RunReport {
    pub fn ops_per_cycle(&self) -> f64 {
        self.ops as f64 / self.traffic_cycles.max(1) as f64
    }
    pub fn ops_per_second(&self) -> f64 {
        self.ops as f64 / self.seconds.max(1e-9)
    }
    pub fn first_mismatch(&self) -> Option<&Mismatch> {
        self.first_mismatches.first()
    }
    /// Operations per second if both threads had a core to themselves: ops
    /// over the larger of the two threads' CPU times.
    pub fn ops_per_cpu_second_of_busiest_thread(&self) -> Option<f64> {
        let busiest = self.simulator_cpu_seconds?.max(self.worker_cpu_seconds?);
        Some(self.ops as f64 / busiest.max(1e-9))
    }
}

/// CPU seconds (user + system) the calling thread has used, from /proc.
pub fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The golden model's operation for a request.
pub fn golden_op(r: &Request) -> golden::Op {
    golden::Op::decode(r.op, r.key)
}

/// What the driving thread knows about the core's flow without the checker:
/// responses outstanding and the last cycle of the latest busy window (a
/// clear, or the recount after a reset).
#[derive(Clone, Copy, Debug, Default)]
struct Flow {
    outstanding: usize,
    busy_until: u64,
}

impl Flow {
    fn absorb(
        &mut self,
        requests: &[Request],
        side_in: &[u64],
        out: &StreamOutput,
        timing: &hdl::Timing,
    ) {
        let cycles = out.cycles as usize;
        let last_reset = (0..cycles.min(side_in.len()))
            .rev()
            .find(|&c| side_in[c] & side::RESET != 0);
        let after = match last_reset {
            Some(c) => {
                let at = out.start_cycle + c as u64;
                self.outstanding = 0;
                self.busy_until = at + timing.reset_busy_cycles as u64;
                at
            }
            None => 0,
        };
        let accepted = out
            .accept_cycle
            .iter()
            .filter(|&&c| c > after || last_reset.is_none())
            .count();
        let answered = (0..out.n_responses)
            .filter(|&i| out.response(i).0 > after || last_reset.is_none())
            .count();
        self.outstanding = (self.outstanding + accepted).saturating_sub(answered);
        for (r, &c) in requests.iter().zip(&out.accept_cycle) {
            if r.op & 3 == 2 && (last_reset.is_none() || c > after) {
                self.busy_until = self.busy_until.max(c + timing.clear_cycles as u64);
            }
        }
    }
}

/// Cycles enough to present `requests` after their gaps, through a busy
/// window in progress, the clear windows they open, readbacks and consumer
/// stalls (the side inputs' resets are budgeted where they are generated).
fn cycle_budget(timing: &hdl::Timing, requests: &[Request], gaps: &[u32]) -> usize {
    let clear = timing.clear_cycles as usize + 1;
    let clears = requests.iter().filter(|r| r.op & 3 == 2).count();
    let busy = timing.clear_cycles.max(timing.reset_busy_cycles) as usize + 1;
    3 * requests.len()
        + gaps.iter().map(|&g| g as usize).sum::<usize>()
        + 64
        + clear * clears
        + busy
}

/// One simulator call: where its items start in the batch, the side inputs it
/// was given, and what the core did.
struct Log {
    start_item: usize,
    side_in: Vec<u64>,
    out: StreamOutput,
}

/// Readiness and side inputs for `n` cycles from the generators; each reset
/// among them adds its recount to the budget (with quiet cycles).
fn fill_cycles(
    n: usize,
    consumer: &mut dyn Consumer,
    side_gen: &mut SideTraffic,
    timing: &hdl::Timing,
    ready: &mut Vec<u8>,
    side_in: &mut Vec<u64>,
) {
    ready.clear();
    side_in.clear();
    let mut extra = 0usize;
    for _ in 0..n {
        ready.push(consumer.next_ready() as u8);
        let s = side_gen.next_inputs();
        if s & side::RESET != 0 {
            extra += timing.reset_busy_cycles as usize + 8;
        }
        side_in.push(s);
    }
    for _ in 0..extra {
        ready.push(consumer.next_ready() as u8);
        side_in.push(side_gen.quiet());
    }
}

/// Streams every request into the core; one log per simulator call (a call
/// ends early only when its cycle budget runs out). Returns Ok(false) if the
/// core accepted nothing during a whole budget (stuck).
#[allow(clippy::too_many_arguments)]
fn stream_all(
    core: &mut VerilatedCore,
    requests: &[Request],
    items: &[u32],
    gaps: &[u32],
    first: Option<(Vec<u8>, Vec<u64>)>,
    consumer: &mut dyn Consumer,
    side_gen: &mut SideTraffic,
    flow: &mut Flow,
    logs: &mut Vec<Log>,
    pool: &mut Vec<StreamOutput>,
) -> Result<bool, SimError> {
    let stride = request_words(core.config.params.key_bits);
    let mut done = 0usize;
    let mut gaps_left: Option<Vec<u32>> = None;
    let mut first = first;
    while done < requests.len() {
        let gaps_now = gaps_left.as_deref().unwrap_or(gaps);
        let (ready, side_in) = match first.take() {
            Some(f) => f,
            None => {
                let n = cycle_budget(&core.timing, &requests[done..], &gaps_now[done..]);
                let (mut r, mut s) = (Vec::new(), Vec::new());
                fill_cycles(n, consumer, side_gen, &core.timing, &mut r, &mut s);
                (r, s)
            }
        };
        let mut out = pool.pop().unwrap_or_default();
        core.stream(
            &items[done * stride..],
            &gaps_now[done..],
            &ready,
            &side_in,
            0,
            &mut out,
        )?;
        let n = out.accepted;
        flow.absorb(&requests[done..done + n], &side_in, &out, &core.timing);
        logs.push(Log {
            start_item: done,
            side_in,
            out,
        });
        done += n;
        if done < requests.len() {
            if n == 0 {
                return Ok(false);
            }
            // The next call presents the interrupted request at once.
            let g = gaps_left.get_or_insert_with(|| gaps.to_vec());
            g[done] = 0;
        }
    }
    Ok(true)
}

/// Runs `cycles` cycles with no request, `ready` from the consumer and quiet
/// side inputs, until `want` responses came (usize::MAX: all the cycles).
// The core, the consumer and the side traffic it drives, and where the cycles go:
// borrowed apart because the callers hold them in different places.
#[allow(clippy::too_many_arguments)]
fn wait_cycles(
    core: &mut VerilatedCore,
    cycles: usize,
    want: usize,
    consumer: &mut dyn Consumer,
    side_gen: &mut SideTraffic,
    flow: &mut Flow,
    logs: &mut Vec<Log>,
    pool: &mut Vec<StreamOutput>,
) -> Result<(), SimError> {
    let ready: Vec<u8> = (0..cycles).map(|_| consumer.next_ready() as u8).collect();
    let side_in: Vec<u64> = (0..cycles).map(|_| side_gen.quiet()).collect();
    let mut out = pool.pop().unwrap_or_default();
    core.stream(&[], &[], &ready, &side_in, want, &mut out)?;
    flow.absorb(&[], &side_in, &out, &core.timing);
    logs.push(Log {
        start_item: 0,
        side_in,
        out,
    });
    Ok(())
}

/// Lets every outstanding response out and any busy window (a clear, a
/// recount) pass, every cycle logged. Returns Ok(false) if the core never
/// got there.
fn drain_core(
    core: &mut VerilatedCore,
    flow: &mut Flow,
    consumer: &mut dyn Consumer,
    side_gen: &mut SideTraffic,
    logs: &mut Vec<Log>,
    pool: &mut Vec<StreamOutput>,
) -> Result<bool, SimError> {
    let mut rounds = 0;
    loop {
        let now = core.cycle();
        let busy_left = (flow.busy_until + 1).saturating_sub(now) as usize;
        if flow.outstanding == 0 && busy_left == 0 {
            return Ok(true);
        }
        rounds += 1;
        if rounds > 1000 {
            return Ok(false);
        }
        let want = if busy_left > 0 {
            usize::MAX
        } else {
            flow.outstanding
        };
        let cycles = busy_left.max(64 + 16 * flow.outstanding);
        wait_cycles(core, cycles, want, consumer, side_gen, flow, logs, pool)?;
    }
}

/// Reads every bit of every bank back, one per cycle, `fill_bank` cycling
/// through all 16 selects; the checker compares each bit with the golden
/// model and each fill count. Call with the core drained.
fn image_readback(
    core: &mut VerilatedCore,
    logs: &mut Vec<Log>,
    pool: &mut Vec<StreamOutput>,
) -> Result<(), SimError> {
    let k = core.config.k();
    let size = core.config.bank_size();
    let n = k * size;
    let cycles = n + core.timing.readback_latency as usize + 1;
    let side_in: Vec<u64> = (0..cycles)
        .map(|c| {
            let rb = (c < n).then(|| side::Access::read((c / size) as u8, (c % size) as u16));
            side::input(false, rb, (c % 16) as u8)
        })
        .collect();
    let ready = vec![1u8; cycles];
    let mut out = pool.pop().unwrap_or_default();
    core.stream(&[], &[], &ready, &side_in, usize::MAX, &mut out)?;
    logs.push(Log {
        start_item: 0,
        side_in,
        out,
    });
    Ok(())
}

/// A Verilated core and its checker (which owns the golden model), in lockstep.
pub struct CoSim {
    pub core: VerilatedCore,
    pub checker: Checker,
    flow: Flow,
    side_gen: SideTraffic,
    pool: Vec<StreamOutput>,
    image_checks: u32,
}

impl CoSim {
    /// Builds (or reuses from the cache) the model of `config`; starts from
    /// reset with the banks the configuration gives (empty, or its preload).
    pub fn new(config: &hdl::CoreConfig) -> Result<CoSim, SimError> {
        Self::from_core(VerilatedCore::build(config, false)?)
    }

    /// Takes a core right after its start-up reset; the golden model starts
    /// from the core's preload image (read by the golden model's own reader)
    /// or empty.
    pub fn from_core(core: VerilatedCore) -> Result<CoSim, SimError> {
        let golden = match &core.config.preload {
            Some(dir) => CountingFilter::import_image_expecting(dir, &core.config.params)
                .map_err(|e| SimError::Value(format!("preload image {}: {e}", dir.display())))?,
            None => CountingFilter::from_config(core.config.params)
                .map_err(|e| SimError::Value(e.to_string()))?,
        };
        Self::with_golden(core, golden)
    }

    /// Takes a core right after its start-up reset whose banks hold `golden`'s.
    pub fn with_golden(
        core: VerilatedCore,
        golden: impl Into<CountingFilter>,
    ) -> Result<CoSim, SimError> {
        let golden: CountingFilter = golden.into();
        if golden.config() != &core.config.params {
            return Err(SimError::Value(format!(
                "the golden model's configuration ({}) is not the core's ({})",
                golden.config(),
                core.config.params
            )));
        }
        if core.cycle() != core.last_reset + 1 {
            return Err(SimError::Value(
                "a co-simulation starts right after the core's reset".into(),
            ));
        }
        let mut checker = Checker::after_reset(core.timing, golden, core.last_reset);
        checker.scrub_built = core.config.scrub;
        checker.scrub_every = core.config.scrub_every;
        let flow = Flow {
            outstanding: 0,
            busy_until: core.last_reset + core.timing.reset_busy_cycles as u64,
        };
        let side_gen = SideTraffic::new(
            &TrafficShape::saturating(core.config.params.key_bits),
            0x5eed,
            &core.config.params,
        );
        Ok(CoSim {
            core,
            checker,
            flow,
            side_gen,
            pool: Vec::new(),
            image_checks: 0,
        })
    }

    /// The golden model (the checker's).
    pub fn golden(&self) -> &CountingFilter {
        &self.checker.golden
    }

    fn check_logs(&mut self, requests: &[Request], logs: &mut Vec<Log>) {
        for log in logs.drain(..) {
            let n = log.out.accepted;
            self.checker.check_stream(
                &requests[log.start_item..log.start_item + n],
                &log.side_in,
                &log.out,
            );
            self.pool.push(log.out);
        }
    }

    /// Runs `requests` (with `gaps[i]` idle cycles before request i, consumer
    /// readiness from `consumer`), waits for every response, and checks every
    /// cycle; single-threaded.
    pub fn run_requests(
        &mut self,
        requests: &[Request],
        gaps: &[u32],
        consumer: &mut dyn Consumer,
    ) -> Result<(), SimError> {
        self.stream_requests(requests, gaps, consumer)?;
        self.drain(consumer)
    }

    /// Like [`CoSim::run_requests`] but returns as soon as the last request is
    /// accepted; its response and those before it may still be in flight.
    pub fn stream_requests(
        &mut self,
        requests: &[Request],
        gaps: &[u32],
        consumer: &mut dyn Consumer,
    ) -> Result<(), SimError> {
        let w = self.core.config.params.key_bits;
        let mut items = Vec::with_capacity(requests.len() * request_words(w));
        for r in requests {
            push_request(&mut items, r, w);
        }
        let mut logs = Vec::new();
        let ok = stream_all(
            &mut self.core,
            requests,
            &items,
            gaps,
            None,
            consumer,
            &mut self.side_gen,
            &mut self.flow,
            &mut logs,
            &mut self.pool,
        )?;
        self.check_logs(requests, &mut logs);
        if !ok {
            self.stuck();
        }
        Ok(())
    }

    fn stuck(&mut self) {
        self.checker.report(Mismatch {
            cycle: self.core.cycle(),
            op_index: Some(self.checker.accepted()),
            what: "no request accepted during a whole cycle budget (req_ready stuck low?)".into(),
        });
    }

    /// Lets every outstanding response out (checking those cycles) and any
    /// clear or recount finish.
    pub fn drain(&mut self, consumer: &mut dyn Consumer) -> Result<(), SimError> {
        let mut logs = Vec::new();
        let ok = drain_core(
            &mut self.core,
            &mut self.flow,
            consumer,
            &mut self.side_gen,
            &mut logs,
            &mut self.pool,
        )?;
        self.check_logs(&[], &mut logs);
        if !ok {
            self.checker.report(Mismatch {
                cycle: self.core.cycle(),
                op_index: None,
                what: format!(
                    "{} responses never came out, or busy never fell",
                    self.flow.outstanding
                ),
            });
        }
        Ok(())
    }

    /// `cycles` checked idle cycles (no request, quiet side inputs).
    pub fn idle(&mut self, cycles: usize, consumer: &mut dyn Consumer) -> Result<(), SimError> {
        let mut logs = Vec::new();
        wait_cycles(
            &mut self.core,
            cycles,
            usize::MAX,
            consumer,
            &mut self.side_gen,
            &mut self.flow,
            &mut logs,
            &mut self.pool,
        )?;
        self.check_logs(&[], &mut logs);
        Ok(())
    }

    /// Requests a scrub (docs/contract.md §5.2) after a drain and runs checked quiet
    /// cycles until it has ended (with nothing else running it takes 2^b slots in a
    /// row). Returns `scrub_mismatch` as the core shows it then (the banks a `side_out`
    /// word records, [`side::SCRUB_MISMATCH_SEEN`]); the checker compares it too.
    pub fn scrub(&mut self, consumer: &mut dyn Consumer) -> Result<u16, SimError> {
        self.drain(consumer)?;
        let cycles = self.core.config.bank_size() + self.core.timing.scrub_end_latency as usize + 2;
        let ready: Vec<u8> = (0..cycles).map(|_| consumer.next_ready() as u8).collect();
        let mut side_in: Vec<u64> = (0..cycles).map(|_| self.side_gen.quiet()).collect();
        side_in[0] |= side::SCRUB_REQ;
        let mut out = self.pool.pop().unwrap_or_default();
        self.core
            .stream(&[], &[], &ready, &side_in, usize::MAX, &mut out)?;
        self.flow.absorb(&[], &side_in, &out, &self.core.timing);
        let last = out.side_out.last().copied().unwrap_or(0);
        if last >> 54 & 1 != 0 {
            self.checker.report(Mismatch {
                cycle: self.core.cycle(),
                op_index: None,
                what: format!(
                    "scrub_busy still high {cycles} cycles after a scrub_req on an idle core"
                ),
            });
        }
        let mut logs = vec![Log {
            start_item: 0,
            side_in,
            out,
        }];
        self.check_logs(&[], &mut logs);
        Ok((last >> 55) as u16 & side::SCRUB_MISMATCH_SEEN)
    }

    /// Drains and idles until no operation is pending; refuses while a scrub runs.
    fn quiesce_for_soft_error(&mut self) -> Result<(), SimError> {
        self.drain(&mut crate::traffic::ReadyPattern::default())?;
        // Bit writes issued in the drain's last cycles commit within commit_latency.
        self.idle(
            self.core.timing.commit_latency as usize + 2,
            &mut crate::traffic::ReadyPattern::default(),
        )?;
        if self.checker.scrub_running() {
            return Err(SimError::Value(
                "a soft error is injected between scrubs here (its cycle would decide which scrub sees it)".into(),
            ));
        }
        Ok(())
    }

    /// Injects a soft error after a drain: XORs `mask` into bank `bank`'s bit (counter)
    /// at `addr` in the core ([`VerilatedCore::soft_error`]: a model with open banks)
    /// and in the golden model, not in the fill counter ([`Checker::soft_change`]).
    /// Returns the change's sign (+1 zero to non-zero, -1 back, 0).
    pub fn soft_error(&mut self, bank: usize, addr: u32, mask: u8) -> Result<i64, SimError> {
        self.quiesce_for_soft_error()?;
        let before = self
            .checker
            .golden
            .counter(bank, addr)
            .ok_or_else(|| SimError::Value(format!("no bank {bank} address {addr}")))?;
        self.core.soft_error(bank, addr, mask)?;
        Ok(self.checker.soft_change(bank, addr, before ^ mask))
    }

    /// A soft error in a netlist's block RAM cell (a model built by
    /// [`crate::core::build_core_with_open_cells`]; plain cores): XORs `mask` into element
    /// `index` of the cell memory `var` in `scope`. Which bank bit that is, the netlist's
    /// mapping says; it is found on a fresh instance of the same model (its image read
    /// back before and after the same flip), and the flip then applied to this core
    /// after a drain and to the golden model, not to the fill counter
    /// ([`Checker::soft_change`]). Returns (bank, address, the change's sign), or None
    /// when the flipped bit holds no bank bit (nothing applied here).
    pub fn cell_soft_error(
        &mut self,
        scope: &str,
        var: &str,
        index: u32,
        mask: u32,
    ) -> Result<Option<(usize, u32, i64)>, SimError> {
        if self.core.config.params.counter_bits != 1 {
            return Err(SimError::Value(
                "a cell soft error is located by the bit readback: plain cores only".into(),
            ));
        }
        let mut probe = self.core.new_instance()?;
        // Past the recount after its start-up reset (busy: readbacks unspecified).
        probe.idle(self.core.timing.reset_busy_cycles as u64 + 2)?;
        let (before, e1) = probe.read_image()?;
        probe.cell_soft_error(scope, var, index, mask)?;
        let (after, e2) = probe.read_image()?;
        if let Some(e) = e1.iter().chain(&e2).next() {
            return Err(SimError::Value(format!("locating the flipped bit: {e}")));
        }
        let changed: Vec<(usize, u32)> = (0..before.len())
            .flat_map(|p| (0..before[p].len()).map(move |a| (p, a)))
            .filter(|&(p, a)| before[p][a] != after[p][a])
            .map(|(p, a)| (p, a as u32))
            .collect();
        let (bank, addr) = match changed.as_slice() {
            [] => return Ok(None),
            [one] => *one,
            more => {
                return Err(SimError::Value(format!(
                    "one flipped bit of `{scope}`.{var} changed {} bank bits",
                    more.len()
                )))
            }
        };
        self.quiesce_for_soft_error()?;
        let now = self
            .checker
            .golden
            .counter(bank, addr)
            .ok_or_else(|| SimError::Value(format!("no bank {bank} address {addr}")))?;
        self.core.cell_soft_error(scope, var, index, mask)?;
        Ok(Some((
            bank,
            addr,
            self.checker.soft_change(bank, addr, now ^ 1),
        )))
    }

    /// Drains, then reads the whole image back through the readback port
    /// (every bit and the fill counters compared with the golden model).
    /// Returns the number of new mismatches.
    pub fn check_image(&mut self, consumer: &mut dyn Consumer) -> Result<u64, SimError> {
        self.drain(consumer)?;
        let before = self.checker.mismatches;
        let mut logs = Vec::new();
        image_readback(&mut self.core, &mut logs, &mut self.pool)?;
        self.check_logs(&[], &mut logs);
        self.image_checks += 1;
        Ok(self.checker.mismatches - before)
    }

    /// The report so far.
    pub fn report(&self) -> RunReport {
        RunReport {
            ops: self.checker.accepted(),
            total_cycles: self.core.cycle(),
            cycles_checked: self.checker.cycles,
            mismatches: self.checker.mismatches,
            first_mismatches: self.checker.first.clone(),
            image_checks: self.image_checks,
            responses: self.checker.responses,
            queries: self.checker.queries,
            query_hits: self.checker.query_hits,
            readbacks_checked: self.checker.readbacks_checked,
            resets: self.checker.resets,
            scrubs: self.checker.scrubs,
            counting: self.checker.counting_events,
            ..Default::default()
        }
    }

    /// Runs `opts.ops` operations of seeded traffic with every cycle checked;
    /// the image read back at checkpoints and at the end. Two threads (see the
    /// module documentation). `progress(ops_done, ops_total)` after each batch.
    pub fn run(
        &mut self,
        opts: &RunOptions,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<RunReport, SimError> {
        let start = self.begin(opts)?;
        let worker_state = self.take_worker(opts);
        let (to_main, from_worker) = mpsc::sync_channel::<Job>(2);
        let (to_worker, from_main) = mpsc::sync_channel::<Done>(4);
        let mut driver = Driver::new(opts, &self.core.config.params);
        let core = &mut self.core;
        let flow = &mut self.flow;
        let pool = &mut self.pool;
        let image_checks = &mut self.image_checks;
        let (worker_back, result) = std::thread::scope(|scope| {
            let handle = scope.spawn(move || worker_state.serve(opts.clone(), to_main, from_main));
            let mut drive = || -> Result<(), SimError> {
                let mut done_ops = 0u64;
                while let Ok(job) = from_worker.recv() {
                    done_ops += job.requests.len() as u64;
                    let done = driver.drive(core, flow, pool, image_checks, job)?;
                    let stuck = done.stuck;
                    // Log buffers come back through a later job's spare_outputs.
                    to_worker.send(done).map_err(|_| worker_gone())?;
                    progress(done_ops, opts.ops);
                    if stuck {
                        break;
                    }
                }
                Ok(())
            };
            let r = drive();
            drop(to_worker);
            (handle.join(), r)
        });
        let worker = worker_back
            .map_err(|_| SimError::Value("the golden model's thread panicked".into()))?;
        self.finish(start, worker, &driver, result)
    }

    /// Like [`CoSim::run`], in the calling thread alone: batches are generated,
    /// simulated and checked in turn. [`run_sharded`] runs one of these per core.
    pub fn run_inline(
        &mut self,
        opts: &RunOptions,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<RunReport, SimError> {
        let start = self.begin(opts)?;
        let mut worker = self.take_worker(opts);
        let mut driver = Driver::new(opts, &self.core.config.params);
        let mut schedule = Schedule::new(opts);
        let mut spare: Option<Job> = None;
        let mut done_ops = 0u64;
        let mut result = Ok(());
        while let Some((n, checkpoint)) = schedule.next() {
            let t = Instant::now();
            let job = worker.make_job(n as usize, checkpoint, spare.take());
            worker.seconds += t.elapsed().as_secs_f64();
            let done = match driver.drive(
                &mut self.core,
                &mut self.flow,
                &mut self.pool,
                &mut self.image_checks,
                job,
            ) {
                Ok(done) => done,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let t = Instant::now();
            let (job, stuck) = worker.absorb(done);
            worker.seconds += t.elapsed().as_secs_f64();
            spare = Some(job);
            done_ops += n;
            progress(done_ops, opts.ops);
            if stuck {
                break;
            }
        }
        // One thread did both: its CPU time is reported as the simulator's, and
        // the worker's stays None.
        self.finish(start, worker, &driver, result)
    }

    /// Checks the options, lets a recount or clear in progress finish (its
    /// cycles checked, but not counted as traffic), and notes where the run
    /// starts (time, CPU, operations).
    fn begin(&mut self, opts: &RunOptions) -> Result<RunStart, SimError> {
        if opts.shape.key_bits != self.core.config.params.key_bits {
            return Err(SimError::Value(format!(
                "traffic has {}-bit keys, the core {}-bit keys",
                opts.shape.key_bits, self.core.config.params.key_bits
            )));
        }
        self.drain(&mut crate::traffic::ReadyPattern::default())?;
        Ok(RunStart {
            started: Instant::now(),
            cpu_before: thread_cpu_seconds(),
            ops_before: self.checker.accepted(),
        })
    }

    /// Takes the checker back from the worker and reports the run (after
    /// `result`, the driving side's outcome).
    fn finish(
        &mut self,
        start: RunStart,
        worker: Worker,
        driver: &Driver,
        result: Result<(), SimError>,
    ) -> Result<RunReport, SimError> {
        self.checker = worker.checker;
        result?;
        let mut report = self.report();
        report.ops = self.checker.accepted() - start.ops_before;
        report.traffic_cycles = driver.traffic_cycles;
        report.seconds = start.started.elapsed().as_secs_f64();
        report.worker_seconds = worker.seconds;
        report.simulator_seconds = driver.seconds;
        report.simulator_cpu_seconds = thread_cpu_seconds()
            .zip(start.cpu_before)
            .map(|(a, b)| a - b);
        report.worker_cpu_seconds = worker.cpu_seconds;
        Ok(report)
    }

    /// Moves the checker into a worker for one run.
    fn take_worker(&mut self, opts: &RunOptions) -> Worker {
        let params = self.core.config.params;
        let placeholder = Checker::new(self.core.timing, params, 0);
        Worker {
            traffic: Traffic::new(
                opts.shape.clone().for_counters(params.counter_bits),
                opts.traffic_seed,
            ),
            side: SideTraffic::new(&opts.shape, opts.traffic_seed, &params),
            checker: std::mem::replace(&mut self.checker, placeholder),
            timing: self.core.timing,
            key_bits: params.key_bits,
            seconds: 0.0,
            cpu_seconds: None,
        }
    }
}

/// The traffic seed of shard `shard` of a run seeded `traffic_seed`: shard 0
/// keeps the run's seed (so one shard is the unsharded run), the others get
/// SplitMix64-spread seeds.
pub fn shard_traffic_seed(traffic_seed: u64, shard: usize) -> u64 {
    if shard == 0 {
        traffic_seed
    } else {
        golden::hash::splitmix64_output(traffic_seed, shard as u64)
    }
}

/// Operations of shard `shard` when `ops` are split over `shards`.
pub fn shard_ops(ops: u64, shards: usize, shard: usize) -> u64 {
    let s = shards.max(1) as u64;
    ops / s + u64::from((shard as u64) < ops % s)
}

/// Runs `opts.ops` operations split over independent co-simulations, one
/// thread each ([`CoSim::run_inline`]): every shard is its own Verilated core
/// with its own golden model, checked cycle by cycle, with its own traffic
/// seed ([`shard_traffic_seed`]). Returns one report per shard and the wall
/// time; `progress(ops_done, ops_total)` from the calling thread.
pub fn run_sharded(
    cosims: &mut [CoSim],
    opts: &RunOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(Vec<RunReport>, f64), SimError> {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    if cosims.is_empty() {
        return Err(SimError::Value(
            "run_sharded: no co-simulation to run".into(),
        ));
    }
    let shards = cosims.len();
    let done_ops: Vec<AtomicU64> = (0..shards).map(|_| AtomicU64::new(0)).collect();
    let finished = AtomicUsize::new(0);
    let started = Instant::now();
    let results: Vec<Result<RunReport, SimError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = cosims
            .iter_mut()
            .enumerate()
            .map(|(i, cosim)| {
                let mut o = opts.clone();
                o.ops = shard_ops(opts.ops, shards, i);
                o.traffic_seed = shard_traffic_seed(opts.traffic_seed, i);
                let (done_ops, finished) = (&done_ops, &finished);
                scope.spawn(move || {
                    let r =
                        cosim.run_inline(&o, &mut |d, _| done_ops[i].store(d, Ordering::Relaxed));
                    finished.fetch_add(1, Ordering::Release);
                    r
                })
            })
            .collect();
        while finished.load(Ordering::Acquire) < shards {
            std::thread::sleep(std::time::Duration::from_millis(50));
            progress(
                done_ops.iter().map(|d| d.load(Ordering::Relaxed)).sum(),
                opts.ops,
            );
        }
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(SimError::Value("a co-simulation thread panicked".into()))
                })
            })
            .collect()
    });
    let seconds = started.elapsed().as_secs_f64();
    let reports = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok((reports, seconds))
}

/// Where a run started, for its report.
struct RunStart {
    started: Instant,
    cpu_before: Option<f64>,
    ops_before: u64,
}

/// Batch sizes of a run: batches of `opts.batch` operations that end exactly
/// at checkpoints; each batch says whether a checkpoint follows it.
struct Schedule {
    ops: u64,
    batch: u64,
    every: u64,
    generated: u64,
    next_checkpoint: u64,
}

impl Schedule {
    fn new(opts: &RunOptions) -> Schedule {
        let next_checkpoint = if opts.checkpoint_every > 0 {
            opts.checkpoint_every
        } else {
            u64::MAX
        };
        Schedule {
            ops: opts.ops,
            batch: opts.batch.max(1) as u64,
            every: opts.checkpoint_every.max(1),
            generated: 0,
            next_checkpoint,
        }
    }

    fn next(&mut self) -> Option<(u64, bool)> {
        if self.generated >= self.ops {
            return None;
        }
        let n = self
            .batch
            .min(self.ops - self.generated)
            .min(self.next_checkpoint.saturating_sub(self.generated).max(1));
        self.generated += n;
        let checkpoint = self.generated >= self.next_checkpoint || self.generated == self.ops;
        if self.generated >= self.next_checkpoint {
            self.next_checkpoint = self.next_checkpoint.saturating_add(self.every);
        }
        Some((n, checkpoint))
    }
}

/// The simulator's side of a run: streams each job into the core, and at a
/// checkpoint drains it and reads its image back.
struct Driver {
    consumer: Traffic,
    side: SideTraffic,
    traffic_cycles: u64,
    seconds: f64,
}

impl Driver {
    fn new(opts: &RunOptions, params: &hdl::CoreParams) -> Driver {
        let seed = opts.traffic_seed ^ 0x5EED_CAFE;
        Driver {
            consumer: Traffic::new(opts.shape.clone(), seed),
            side: SideTraffic::new(&opts.shape, seed, params),
            traffic_cycles: 0,
            seconds: 0.0,
        }
    }

    fn drive(
        &mut self,
        core: &mut VerilatedCore,
        flow: &mut Flow,
        pool: &mut Vec<StreamOutput>,
        image_checks: &mut u32,
        mut job: Job,
    ) -> Result<Done, SimError> {
        pool.append(&mut job.spare_outputs);
        let t = Instant::now();
        let c0 = core.cycle();
        let mut logs = Vec::new();
        let first = Some((
            std::mem::take(&mut job.ready),
            std::mem::take(&mut job.side_in),
        ));
        let ok = stream_all(
            core,
            &job.requests,
            &job.items,
            &job.gaps,
            first,
            &mut self.consumer,
            &mut self.side,
            flow,
            &mut logs,
            pool,
        )?;
        self.traffic_cycles += core.cycle() - c0;
        let mut image_checked = false;
        if ok
            && job.checkpoint
            && drain_core(
                core,
                flow,
                &mut self.consumer,
                &mut self.side,
                &mut logs,
                pool,
            )?
        {
            image_readback(core, &mut logs, pool)?;
            *image_checks += 1;
            image_checked = true;
        }
        self.seconds += t.elapsed().as_secs_f64();
        Ok(Done {
            job,
            logs,
            image_checked,
            stuck: !ok,
            resume: core.cycle(),
        })
    }
}

/// A batch prepared by the worker: requests, their stream encoding, gaps, and
/// the consumer's readiness and the side inputs for the first call.
struct Job {
    requests: Vec<Request>,
    items: Vec<u32>,
    gaps: Vec<u32>,
    ready: Vec<u8>,
    side_in: Vec<u64>,
    /// Read the image back after this batch.
    checkpoint: bool,
    /// Checked logs' buffers, returned to the simulator thread for reuse.
    spare_outputs: Vec<StreamOutput>,
}

struct Done {
    job: Job,
    logs: Vec<Log>,
    image_checked: bool,
    stuck: bool,
    resume: u64,
}

struct Worker {
    traffic: Traffic,
    side: SideTraffic,
    checker: Checker,
    timing: hdl::Timing,
    key_bits: u32,
    seconds: f64,
    cpu_seconds: Option<f64>,
}

fn worker_gone() -> SimError {
    SimError::Value("the golden model's thread stopped".into())
}

impl Worker {
    fn make_job(&mut self, n: usize, checkpoint: bool, mut recycled: Option<Job>) -> Job {
        let mut job = recycled.take().unwrap_or(Job {
            requests: Vec::new(),
            items: Vec::new(),
            gaps: Vec::new(),
            ready: Vec::new(),
            side_in: Vec::new(),
            checkpoint: false,
            spare_outputs: Vec::new(),
        });
        job.requests.clear();
        job.items.clear();
        job.gaps.clear();
        job.checkpoint = checkpoint;
        for _ in 0..n {
            let (r, g) = self.traffic.next_request();
            job.requests.push(r);
            job.gaps.push(g);
            push_request(&mut job.items, &r, self.key_bits);
        }
        let budget = cycle_budget(&self.timing, &job.requests, &job.gaps);
        fill_cycles(
            budget,
            &mut self.traffic,
            &mut self.side,
            &self.timing,
            &mut job.ready,
            &mut job.side_in,
        );
        job
    }

    /// Checks a simulated job's logs; returns the job for reuse and whether
    /// the core was stuck.
    fn absorb(&mut self, mut done: Done) -> (Job, bool) {
        let job = &done.job;
        for log in &done.logs {
            let n = log.out.accepted;
            let requests = if log.start_item < job.requests.len() {
                &job.requests[log.start_item..log.start_item + n]
            } else {
                &[][..]
            };
            self.checker.check_stream(requests, &log.side_in, &log.out);
        }
        if job.checkpoint && !done.image_checked && !done.stuck {
            self.checker.report(Mismatch {
                cycle: done.resume,
                op_index: None,
                what: "responses never came out, or busy never fell, before the image check".into(),
            });
        }
        if done.stuck {
            self.checker.report(Mismatch {
                cycle: done.resume,
                op_index: Some(self.checker.accepted()),
                what: "no request accepted during a whole cycle budget (req_ready stuck low?)"
                    .into(),
            });
        }
        let mut job = done.job;
        job.spare_outputs.extend(done.logs.drain(..).map(|l| l.out));
        (job, done.stuck)
    }

    fn serve(
        mut self,
        opts: RunOptions,
        to_main: mpsc::SyncSender<Job>,
        from_main: mpsc::Receiver<Done>,
    ) -> Worker {
        let cpu_before = thread_cpu_seconds();
        let mut schedule = Schedule::new(&opts);
        let mut in_flight = 0usize;
        let mut spare: Vec<Job> = Vec::new();
        let mut stuck = false;
        loop {
            // Keep up to two batches ahead of the simulator.
            while !stuck && in_flight < 2 {
                let t = Instant::now();
                let Some((n, checkpoint)) = schedule.next() else {
                    break;
                };
                let job = self.make_job(n as usize, checkpoint, spare.pop());
                self.seconds += t.elapsed().as_secs_f64();
                if to_main.send(job).is_err() {
                    stuck = true;
                    break;
                }
                in_flight += 1;
            }
            if in_flight == 0 {
                break;
            }
            let Ok(done) = from_main.recv() else { break };
            in_flight -= 1;
            let t = Instant::now();
            let (job, was_stuck) = self.absorb(done);
            stuck |= was_stuck;
            spare.push(job);
            self.seconds += t.elapsed().as_secs_f64();
        }
        self.cpu_seconds = thread_cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
        self
    }
}
