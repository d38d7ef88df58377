//! The co-simulation harness: seeded traffic through the Verilated core, every
//! response checked at its exact cycle against the golden model, and the whole
//! memory image and fill counters compared at checkpoints and at the end.
//!
//! [`CoSim::run`] splits the work over two threads: the calling thread only
//! drives Verilator (whole batches per call into C++); a worker thread
//! generates the traffic, runs the golden model ahead of the simulator (the
//! expected responses depend only on the operations, not on the timing) and
//! checks the simulator's cycle logs as they come back. [`CoSim::run_inline`]
//! does the same batches in the calling thread alone, and [`run_sharded`] runs
//! one of those per CPU on independent cores (what `bloom sim` does by
//! default: the Verilated model is the slower half, so two single-threaded
//! shards keep both CPUs busier than one stream split over two threads). The
//! simpler single-threaded calls ([`CoSim::run_requests`], [`CoSim::drain`],
//! [`CoSim::check_image`]) serve tests and the false-positive measurement.

use std::sync::mpsc;
use std::time::Instant;

use golden::{Op, PartitionedFilter};

use crate::checker::{Checker, Mismatch};
use crate::core::{push_request, request_words, VerilatedCore};
use crate::model::StreamOutput;
use crate::traffic::{Consumer, Request, Traffic, TrafficShape};
use crate::SimError;

/// What to run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub ops: u64,
    pub traffic_seed: u64,
    pub shape: TrafficShape,
    /// Operations handed to the simulator per call.
    pub batch: usize,
    /// Compare the memory image and fill counters after about this many
    /// operations (and always at the end); 0 = only at the end.
    pub checkpoint_every: u64,
}

impl RunOptions {
    pub fn stress(ops: u64, key_bits: u32, traffic_seed: u64) -> RunOptions {
        RunOptions { ops, traffic_seed, shape: TrafficShape::stress(key_bits), batch: 1 << 14, checkpoint_every: 0 }
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
    pub mismatches: u64,
    pub first_mismatches: Vec<Mismatch>,
    pub image_checks: u32,
    pub responses: u64,
    pub queries: u64,
    pub query_hits: u64,
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
pub fn golden_op(r: &Request) -> Op {
    Op::decode(r.op, r.key)
}

/// The golden model's banks and fills at one point of a run.
#[derive(Clone, Debug)]
pub struct GoldenImage {
    pub banks: Vec<Vec<u8>>,
    pub fill: Vec<u32>,
}

impl GoldenImage {
    pub fn of(g: &PartitionedFilter) -> GoldenImage {
        let k = g.config().k as usize;
        GoldenImage { banks: (0..k).map(|p| g.bank(p).unwrap_or(&[]).to_vec()).collect(), fill: g.fill() }
    }
}

/// The core's image as read through its ports.
#[derive(Clone, Debug)]
pub struct CoreImage {
    pub banks: Vec<Vec<u8>>,
    /// fill_count for fill_bank = 0..16.
    pub fills: Vec<u32>,
    pub readback_errors: Vec<String>,
    pub start_cycle: u64,
    pub fill_cycle: u64,
    pub end_cycle: u64,
}

/// Compares a core image with the golden one; reports into `checker`.
pub fn compare_image(checker: &mut Checker, core: &CoreImage, gold: &GoldenImage, readback_latency: u32) {
    for e in &core.readback_errors {
        checker.report(Mismatch { cycle: core.start_cycle, op_index: None, what: format!("readback: {e}") });
    }
    let ops = checker.accepted();
    for (p, bank) in core.banks.iter().enumerate() {
        let g = &gold.banks[p];
        if let Some(a) = (0..bank.len()).find(|&a| bank[a] != g[a]) {
            let differing = (0..bank.len()).filter(|&x| bank[x] != g[x]).count();
            checker.report(Mismatch {
                cycle: core.start_cycle + (p * bank.len() + a) as u64 + readback_latency as u64,
                op_index: Some(ops),
                what: format!(
                    "memory image after {ops} operations: bank {p} address {a} reads {}, golden {} ({differing} bits of bank {p} differ)",
                    bank[a], g[a]
                ),
            });
        }
    }
    for (p, &f) in core.fills.iter().enumerate() {
        let g = gold.fill.get(p).copied().unwrap_or(0);
        if f != g {
            checker.report(Mismatch {
                cycle: core.fill_cycle + p as u64,
                op_index: Some(ops),
                what: format!("fill_count of bank {p} is {f}, golden {g}"),
            });
        }
    }
    checker.skip_to(core.end_cycle);
}

/// What the driving thread knows about the core's flow without the checker:
/// responses outstanding and the end of the latest clear window.
#[derive(Clone, Copy, Debug, Default)]
struct Flow {
    outstanding: usize,
    clear_until: Option<u64>,
}

impl Flow {
    fn absorb(&mut self, requests: &[Request], out: &StreamOutput, timing: &hdl::Timing) {
        self.outstanding = (self.outstanding + out.accepted).saturating_sub(out.n_responses);
        for (r, &c) in requests.iter().zip(&out.accept_cycle) {
            if r.op == 2 {
                self.clear_until = Some(c + timing.clear_cycles as u64);
            }
        }
    }
}

/// Cycles enough to present `requests` after their gaps, through a clear
/// window in progress, the clear windows they open, and consumer stalls.
fn cycle_budget(timing: &hdl::Timing, requests: &[Request], gaps: &[u32]) -> usize {
    let clear = timing.clear_cycles as usize + 1;
    let clears = requests.iter().filter(|r| r.op == 2).count();
    2 * requests.len() + gaps.iter().map(|&g| g as usize).sum::<usize>() + 64 + clear * (clears + 1)
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
    first_ready: &[u8],
    consumer: &mut dyn Consumer,
    flow: &mut Flow,
    logs: &mut Vec<(usize, StreamOutput)>,
    pool: &mut Vec<StreamOutput>,
) -> Result<bool, SimError> {
    let stride = request_words(core.config.params.key_bits);
    let mut done = 0usize;
    let mut gaps_left: Option<Vec<u32>> = None;
    let mut ready_owned = Vec::new();
    while done < requests.len() {
        let gaps_now = gaps_left.as_deref().unwrap_or(gaps);
        let ready: &[u8] = if done == 0 && !first_ready.is_empty() {
            first_ready
        } else {
            let n = cycle_budget(&core.timing, &requests[done..], &gaps_now[done..]);
            ready_owned.clear();
            ready_owned.extend((0..n).map(|_| consumer.next_ready() as u8));
            &ready_owned
        };
        let mut out = pool.pop().unwrap_or_default();
        core.stream(&items[done * stride..], &gaps_now[done..], ready, 0, &mut out)?;
        let n = out.accepted;
        flow.absorb(&requests[done..done + n], &out, &core.timing);
        logs.push((done, out));
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

/// Lets every outstanding response out and any clear window pass. Returns
/// Ok(false) if responses never came out.
fn drain_core(
    core: &mut VerilatedCore,
    flow: &mut Flow,
    consumer: &mut dyn Consumer,
    logs: &mut Vec<(usize, StreamOutput)>,
    pool: &mut Vec<StreamOutput>,
) -> Result<bool, SimError> {
    let mut rounds = 0;
    while flow.outstanding > 0 {
        let want = flow.outstanding;
        let cycles = 64 + 16 * want;
        let ready: Vec<u8> = (0..cycles).map(|_| consumer.next_ready() as u8).collect();
        let mut out = pool.pop().unwrap_or_default();
        core.stream(&[], &[], &ready, want, &mut out)?;
        flow.absorb(&[], &out, &core.timing);
        logs.push((0, out));
        rounds += 1;
        if rounds > 1000 {
            return Ok(false);
        }
    }
    let now = core.cycle();
    if let Some(until) = flow.clear_until {
        if until >= now {
            core.idle(until + 1 - now)?;
        }
    }
    Ok(true)
}

fn read_core_image(core: &mut VerilatedCore) -> Result<CoreImage, SimError> {
    let start_cycle = core.cycle();
    let (banks, readback_errors) = core.read_image()?;
    let fill_cycle = core.cycle();
    let fills = core.read_fills()?;
    Ok(CoreImage { banks, fills, readback_errors, start_cycle, fill_cycle, end_cycle: core.cycle() })
}

/// A Verilated core and the golden model, kept in lockstep.
pub struct CoSim {
    pub core: VerilatedCore,
    pub golden: PartitionedFilter,
    pub checker: Checker,
    flow: Flow,
    pool: Vec<StreamOutput>,
    image_checks: u32,
}

impl CoSim {
    /// Builds (or reuses from the cache) the model of `config`; starts from
    /// reset with empty banks.
    pub fn new(config: &hdl::CoreConfig) -> Result<CoSim, SimError> {
        Self::from_core(VerilatedCore::build(config, false)?)
    }

    /// Takes a freshly built or reset core whose banks are empty.
    pub fn from_core(core: VerilatedCore) -> Result<CoSim, SimError> {
        let golden = PartitionedFilter::try_new(core.config.params).map_err(|e| SimError::Value(e.to_string()))?;
        let mut checker = Checker::new(core.timing);
        checker.skip_to(core.cycle());
        Ok(CoSim { core, golden, checker, flow: Flow::default(), pool: Vec::new(), image_checks: 0 })
    }

    fn check_logs(&mut self, requests: &[Request], hits: &[bool], logs: &mut Vec<(usize, StreamOutput)>) {
        for (start, out) in logs.drain(..) {
            let n = out.accepted;
            self.checker.check(&requests[start..start + n], &hits[start..start + n], &out);
            self.pool.push(out);
        }
    }

    /// Runs `requests` (with `gaps[i]` idle cycles before request i, consumer
    /// readiness from `consumer`), waits for every response, and checks every
    /// cycle; single-threaded.
    pub fn run_requests(&mut self, requests: &[Request], gaps: &[u32], consumer: &mut dyn Consumer) -> Result<(), SimError> {
        self.stream_requests(requests, gaps, consumer)?;
        self.drain(consumer)
    }

    /// Like [`CoSim::run_requests`] but returns as soon as the last request is
    /// accepted; its response and those before it may still be in flight.
    pub fn stream_requests(&mut self, requests: &[Request], gaps: &[u32], consumer: &mut dyn Consumer) -> Result<(), SimError> {
        let mut hits = Vec::with_capacity(requests.len());
        for r in requests {
            hits.push(self.golden.apply(golden_op(r)).map_err(|e| SimError::Value(e.to_string()))?);
        }
        let w = self.core.config.params.key_bits;
        let mut items = Vec::with_capacity(requests.len() * request_words(w));
        for r in requests {
            push_request(&mut items, r, w);
        }
        let mut logs = Vec::new();
        let ok = stream_all(&mut self.core, requests, &items, gaps, &[], consumer, &mut self.flow, &mut logs, &mut self.pool)?;
        self.check_logs(requests, &hits, &mut logs);
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
    /// clear finish.
    pub fn drain(&mut self, consumer: &mut dyn Consumer) -> Result<(), SimError> {
        let mut logs = Vec::new();
        let ok = drain_core(&mut self.core, &mut self.flow, consumer, &mut logs, &mut self.pool)?;
        self.check_logs(&[], &[], &mut logs);
        if !ok {
            self.checker.report(Mismatch {
                cycle: self.core.cycle(),
                op_index: None,
                what: format!("{} responses never came out", self.flow.outstanding),
            });
        }
        self.checker.skip_to(self.core.cycle());
        Ok(())
    }

    /// Drains, then compares the whole image (readback port) and every fill
    /// counter with the golden model. Returns the number of new mismatches.
    pub fn check_image(&mut self, consumer: &mut dyn Consumer) -> Result<u64, SimError> {
        self.drain(consumer)?;
        let before = self.checker.mismatches;
        let image = read_core_image(&mut self.core)?;
        compare_image(&mut self.checker, &image, &GoldenImage::of(&self.golden), self.core.timing.readback_latency);
        self.image_checks += 1;
        Ok(self.checker.mismatches - before)
    }

    /// The report so far.
    pub fn report(&self) -> RunReport {
        RunReport {
            ops: self.checker.accepted(),
            total_cycles: self.core.cycle(),
            mismatches: self.checker.mismatches,
            first_mismatches: self.checker.first.clone(),
            image_checks: self.image_checks,
            responses: self.checker.responses,
            queries: self.checker.queries,
            query_hits: self.checker.query_hits,
            ..Default::default()
        }
    }

    /// Runs `opts.ops` operations of seeded traffic with every cycle checked;
    /// image and fills compared at checkpoints and at the end. Two threads (see
    /// the module documentation). `progress(ops_done, ops_total)` after each batch.
    pub fn run(&mut self, opts: &RunOptions, progress: &mut dyn FnMut(u64, u64)) -> Result<RunReport, SimError> {
        let start = self.begin(opts)?;
        let worker_state = self.take_worker(opts);
        let (to_main, from_worker) = mpsc::sync_channel::<Job>(2);
        let (to_worker, from_main) = mpsc::sync_channel::<Done>(4);
        let mut driver = Driver::new(opts);
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
        let worker = worker_back.map_err(|_| SimError::Value("the golden model's thread panicked".into()))?;
        self.finish(start, worker, &driver, result)
    }

    /// Like [`CoSim::run`], in the calling thread alone: batches are generated,
    /// simulated and checked in turn. [`run_sharded`] runs one of these per core.
    pub fn run_inline(&mut self, opts: &RunOptions, progress: &mut dyn FnMut(u64, u64)) -> Result<RunReport, SimError> {
        let start = self.begin(opts)?;
        let mut worker = self.take_worker(opts);
        let mut driver = Driver::new(opts);
        let mut schedule = Schedule::new(opts);
        let mut spare: Option<Job> = None;
        let mut done_ops = 0u64;
        let mut result = Ok(());
        while let Some((n, checkpoint)) = schedule.next() {
            let t = Instant::now();
            let job = worker.make_job(n as usize, checkpoint, spare.take());
            worker.seconds += t.elapsed().as_secs_f64();
            let done = match driver.drive(&mut self.core, &mut self.flow, &mut self.pool, &mut self.image_checks, job) {
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

    /// Checks the options and notes where the run starts (time, CPU, operations).
    fn begin(&self, opts: &RunOptions) -> Result<RunStart, SimError> {
        if opts.shape.key_bits != self.core.config.params.key_bits {
            return Err(SimError::Value(format!(
                "traffic has {}-bit keys, the core {}-bit keys",
                opts.shape.key_bits, self.core.config.params.key_bits
            )));
        }
        Ok(RunStart { started: Instant::now(), cpu_before: thread_cpu_seconds(), ops_before: self.checker.accepted() })
    }

    /// Takes the golden model and the checker back from the worker and reports
    /// the run (after `result`, the driving side's outcome).
    fn finish(&mut self, start: RunStart, worker: Worker, driver: &Driver, result: Result<(), SimError>) -> Result<RunReport, SimError> {
        self.golden = worker.golden;
        self.checker = worker.checker;
        result?;
        let mut report = self.report();
        report.ops = self.checker.accepted() - start.ops_before;
        report.traffic_cycles = driver.traffic_cycles;
        report.seconds = start.started.elapsed().as_secs_f64();
        report.worker_seconds = worker.seconds;
        report.simulator_seconds = driver.seconds;
        report.simulator_cpu_seconds = thread_cpu_seconds().zip(start.cpu_before).map(|(a, b)| a - b);
        report.worker_cpu_seconds = worker.cpu_seconds;
        Ok(report)
    }

    /// Moves the golden model and the checker into a worker for one run.
    fn take_worker(&mut self, opts: &RunOptions) -> Worker {
        let timing = self.core.timing;
        let placeholder = PartitionedFilter::new(golden::Config::default());
        Worker {
            traffic: Traffic::new(opts.shape.clone(), opts.traffic_seed),
            golden: std::mem::replace(&mut self.golden, placeholder),
            checker: std::mem::replace(&mut self.checker, Checker::new(timing)),
            snapshots: Vec::new(),
            timing,
            key_bits: self.core.config.params.key_bits,
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
        return Err(SimError::Value("run_sharded: no co-simulation to run".into()));
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
                    let r = cosim.run_inline(&o, &mut |d, _| done_ops[i].store(d, Ordering::Relaxed));
                    finished.fetch_add(1, Ordering::Release);
                    r
                })
            })
            .collect();
        while finished.load(Ordering::Acquire) < shards {
            std::thread::sleep(std::time::Duration::from_millis(50));
            progress(done_ops.iter().map(|d| d.load(Ordering::Relaxed)).sum(), opts.ops);
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(SimError::Value("a co-simulation thread panicked".into()))))
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
        let next_checkpoint = if opts.checkpoint_every > 0 { opts.checkpoint_every } else { u64::MAX };
        Schedule { ops: opts.ops, batch: opts.batch.max(1) as u64, every: opts.checkpoint_every.max(1), generated: 0, next_checkpoint }
    }

    fn next(&mut self) -> Option<(u64, bool)> {
        if self.generated >= self.ops {
            return None;
        }
        let n = self.batch.min(self.ops - self.generated).min(self.next_checkpoint.saturating_sub(self.generated).max(1));
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
    traffic_cycles: u64,
    seconds: f64,
}

impl Driver {
    fn new(opts: &RunOptions) -> Driver {
        Driver { consumer: Traffic::new(opts.shape.clone(), opts.traffic_seed ^ 0x5EED_CAFE), traffic_cycles: 0, seconds: 0.0 }
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
        let ok =
            stream_all(core, &job.requests, &job.items, &job.gaps, &job.ready, &mut self.consumer, flow, &mut logs, pool)?;
        self.traffic_cycles += core.cycle() - c0;
        let mut image = None;
        if ok && job.checkpoint && drain_core(core, flow, &mut self.consumer, &mut logs, pool)? {
            image = Some(read_core_image(core)?);
            *image_checks += 1;
        }
        self.seconds += t.elapsed().as_secs_f64();
        Ok(Done { job, logs, image, stuck: !ok, resume: core.cycle() })
    }
}

/// A batch prepared by the worker: requests, their stream encoding, gaps, the
/// consumer's readiness for the first call, and the golden responses.
struct Job {
    requests: Vec<Request>,
    items: Vec<u32>,
    gaps: Vec<u32>,
    ready: Vec<u8>,
    hits: Vec<bool>,
    /// Compare the image after this batch (the worker kept the golden snapshot).
    checkpoint: bool,
    /// Checked logs' buffers, returned to the simulator thread for reuse.
    spare_outputs: Vec<StreamOutput>,
}

struct Done {
    job: Job,
    logs: Vec<(usize, StreamOutput)>,
    image: Option<CoreImage>,
    stuck: bool,
    resume: u64,
}

struct Worker {
    traffic: Traffic,
    golden: PartitionedFilter,
    checker: Checker,
    snapshots: Vec<GoldenImage>,
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
            hits: Vec::new(),
            checkpoint: false,
            spare_outputs: Vec::new(),
        });
        job.requests.clear();
        job.items.clear();
        job.gaps.clear();
        job.ready.clear();
        job.hits.clear();
        job.checkpoint = checkpoint;
        for _ in 0..n {
            let (r, g) = self.traffic.next_request();
            job.requests.push(r);
            job.gaps.push(g);
            push_request(&mut job.items, &r, self.key_bits);
            // Keys come from the traffic generator, which keeps them within W.
            job.hits.push(self.golden.apply(golden_op(&r)).unwrap_or(false));
        }
        let budget = cycle_budget(&self.timing, &job.requests, &job.gaps);
        for _ in 0..budget {
            job.ready.push(self.traffic.next_ready() as u8);
        }
        if checkpoint {
            self.snapshots.push(GoldenImage::of(&self.golden));
        }
        job
    }

    /// Checks a simulated job's logs (and its image at a checkpoint); returns
    /// the job for reuse and whether the core was stuck.
    fn absorb(&mut self, mut done: Done) -> (Job, bool) {
        let job = &done.job;
        for (start, out) in &done.logs {
            let n = out.accepted;
            self.checker.check(&job.requests[*start..start + n], &job.hits[*start..start + n], out);
        }
        if job.checkpoint {
            let snapshot = self.snapshots.remove(0);
            match &done.image {
                Some(image) => compare_image(&mut self.checker, image, &snapshot, self.timing.readback_latency),
                None if !done.stuck => self.checker.report(Mismatch {
                    cycle: done.resume,
                    op_index: None,
                    what: "responses never came out before the image check".into(),
                }),
                None => {}
            }
        }
        if done.stuck {
            self.checker.report(Mismatch {
                cycle: done.resume,
                op_index: Some(self.checker.accepted()),
                what: "no request accepted during a whole cycle budget (req_ready stuck low?)".into(),
            });
        }
        self.checker.skip_to(done.resume);
        let mut job = done.job;
        job.spare_outputs.extend(done.logs.drain(..).map(|(_, out)| out));
        (job, done.stuck)
    }

    fn serve(mut self, opts: RunOptions, to_main: mpsc::SyncSender<Job>, from_main: mpsc::Receiver<Done>) -> Worker {
        let cpu_before = thread_cpu_seconds();
        let mut schedule = Schedule::new(&opts);
        let mut in_flight = 0usize;
        let mut spare: Vec<Job> = Vec::new();
        let mut stuck = false;
        loop {
            // Keep up to two batches ahead of the simulator.
            while !stuck && in_flight < 2 {
                let t = Instant::now();
                let Some((n, checkpoint)) = schedule.next() else { break };
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
