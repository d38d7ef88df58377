//! `bloom sim`: random operations through the Verilated core (its RTL, or a
//! netlist of it as the FPGA tools make it: `--netlist`), every port checked
//! against the golden model in every cycle, the memory image and fill counters
//! read back at checkpoints and at the end, then the measured false-positive
//! rate beside the exact formula. `--sweep` runs the same over the corner
//! configurations; `--lanes L` co-simulates `bloom_lanes` instead (`lanes.rs`).
//! Exits non-zero on any mismatch.

mod lanes;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::bail;
use clap::ValueEnum;

use crate::cli::config::CoreArgs;
use sim::fpr::measure_fpr;
use sim::netlist::NetlistKind;
use sim::{run_sharded, CoSim, RunOptions, TrafficShape};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TrafficArg {
    /// Bursts, idle gaps, consumer stalls, small key pools, clears: finds bugs.
    Stress,
    /// Back-to-back requests, a consumer that never stalls: measures throughput.
    Saturating,
}

impl TrafficArg {
    /// The name the command line gives it.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }
}

/// Most operations a traced run may have: the VCD grows by every cycle.
const MAX_TRACED_OPS: u64 = 200_000;
const MAX_OPS: u64 = 1_000_000_000_000;
const MAX_SHARDS: usize = 64;
const DEFAULT_TRAFFIC_SEED: u64 = 1;
const DEFAULT_CHECKPOINT_EVERY: u64 = 250_000;
const DEFAULT_FPR_QUERIES: u64 = 100_000;

#[derive(clap::Args)]
pub struct Args {
    /// Number of operations to run (1 ..= 10^12).
    #[arg(long, default_value_t = 1_000_000)]
    pub ops: u64,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Seed of the traffic generator (the hash seed is --seed).
    #[arg(long = "traffic-seed", default_value_t = DEFAULT_TRAFFIC_SEED)]
    pub traffic_seed: u64,
    /// Shape of the traffic.
    #[arg(long, value_enum, default_value_t = TrafficArg::Stress)]
    pub traffic: TrafficArg,
    /// Compare the whole memory image and the fill counters every N operations
    /// (and always at the end); 0 = only at the end.
    #[arg(long = "checkpoint-every", default_value_t = DEFAULT_CHECKPOINT_EVERY)]
    pub checkpoint_every: u64,
    /// Write a VCD waveform of the run to FILE (at most 200000 operations;
    /// one shard).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Independent co-simulations run side by side, one thread each: each has
    /// its own Verilated core, golden model and traffic seed, and gets an equal
    /// share of --ops. 1 = one stream, simulated on one thread and checked on
    /// another. Default: one per available CPU (1 with --trace).
    #[arg(long)]
    pub shards: Option<usize>,
    /// Keys inserted before measuring the false-positive rate (default: 2^b ln 2,
    /// the fill that minimises the rate for this k and bank size).
    #[arg(long = "fpr-inserts")]
    pub fpr_inserts: Option<u64>,
    /// Fresh keys queried to measure the false-positive rate; 0 skips it.
    #[arg(long = "fpr-queries", default_value_t = DEFAULT_FPR_QUERIES)]
    pub fpr_queries: u64,
    /// What is simulated: `rtl` (the generated Verilog), `ice40` / `ecp5` (the
    /// netlist after Yosys synth_ice40 / synth_ecp5, as `bloom build` makes it,
    /// with the family's cell models), `ice40-routed` (placed and routed by
    /// nextpnr on an HX8K, packed, and read back from the bitstream by
    /// iceunpack and icebox_vlog). Netlists are cached by content.
    #[arg(long, default_value = "rtl", value_parser = parse_netlist_kind)]
    pub netlist: NetlistKind,
    /// Start the banks with this memory image (a directory as `bloom image
    /// export` writes it, docs/contract.md section 4); it is read back and the
    /// fill counters compared from the first cycle.
    #[arg(long)]
    pub preload: Option<PathBuf>,
    /// Run the co-simulation on each corner configuration in turn (every
    /// parameter's extremes: k 1 and 16, bank bits 6 and 16, 32- and 128-bit
    /// keys, every hash family; `bloom sim --sweep` lists them) instead of the
    /// one given; --ops operations each. The corners fix the core's parameters, so
    /// none of them may be given with it.
    #[arg(long, conflicts_with_all = ["trace", "preload", "k", "bank_bits", "key_bits",
                                      "hash", "seed", "counter_bits"])]
    pub sweep: bool,
    /// Co-simulate `bloom_lanes` with L lanes (1..=128; docs/contract.md section 8):
    /// beats of up to L operations, every response beat checked slot by slot against
    /// the golden model's beats in every cycle. --ops is divided into beats of L;
    /// stress traffic runs every kind of beat with backpressure, then resets in
    /// flight; saturating traffic must give L operations per cycle (within 1%).
    /// A plain or a counting filter (--counter-bits; deletes in two of five write beats);
    /// no trace, preload, shards or false-positive measurement.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=hdl::lanes::MAX_LANES as i64),
          conflicts_with_all = ["trace", "preload", "sweep", "shards", "fpr_inserts"])]
    pub lanes: Option<u32>,
    /// With --lanes: 1, every query lane reads replicas of its own; 2, two query lanes
    /// share each replica on its two ports (as `bloom verilog --replica-ports`).
    #[arg(long, requires = "lanes", value_parser = clap::value_parser!(u32).range(1..=2))]
    pub replica_ports: Option<u32>,
}

fn parse_netlist_kind(s: &str) -> Result<NetlistKind, String> {
    s.parse()
}

/// The trace goes to a fresh temporary file beside FILE (`bloom_files::OutputFile`),
/// renamed into place only when the run completed (with or without mismatches); an
/// error or an interrupt leaves nothing. FILE may be new or an existing regular file
/// that may be written: anything else there (a symbolic link, a FIFO, a device such
/// as /dev/null, a directory, a read-only file) is refused, before the run and again
/// before the rename, and never replaced.
struct TraceFile {
    out: bloom_files::OutputFile,
}

impl TraceFile {
    fn prepare(target: &Path) -> anyhow::Result<TraceFile> {
        crate::cli::check_output_file("--trace", target)?;
        let out =
            bloom_files::OutputFile::create(target).map_err(|e| anyhow::anyhow!("--trace {e}"))?;
        Ok(TraceFile { out })
    }

    /// Where the simulator writes the VCD.
    fn temp(&self) -> &Path {
        self.out.temp_path()
    }

    fn commit(self) -> anyhow::Result<()> {
        self.out
            .commit()
            .map_err(|e| anyhow::anyhow!("--trace {e}"))
    }
}

impl Args {
    /// `bloom sim --ops OPS` with every other option at its default, for the
    /// configuration `params`.
    pub fn defaults_for(params: hdl::CoreParams, ops: u64) -> Args {
        Args {
            ops,
            core: CoreArgs { params },
            traffic_seed: DEFAULT_TRAFFIC_SEED,
            traffic: TrafficArg::Stress,
            checkpoint_every: DEFAULT_CHECKPOINT_EVERY,
            trace: None,
            shards: None,
            fpr_inserts: None,
            fpr_queries: DEFAULT_FPR_QUERIES,
            netlist: NetlistKind::Rtl,
            preload: None,
            sweep: false,
            lanes: None,
            replica_ports: None,
        }
    }
}

/// What `bloom sim` does, validated.
pub struct Job {
    pub params: hdl::CoreParams,
    pub ops: u64,
    pub traffic_seed: u64,
    pub traffic: TrafficArg,
    pub checkpoint_every: u64,
    pub trace: Option<PathBuf>,
    pub shards: usize,
    pub fpr_inserts: u64,
    pub fpr_queries: u64,
    pub netlist: NetlistKind,
    pub preload: Option<PathBuf>,
    /// `bloom_lanes` with this many lanes instead of the core.
    pub lanes: Option<usize>,
    pub replica_ports: hdl::lanes::ReplicaPorts,
}

/// What a run checked (it found no mismatch, or it is an error).
pub struct Summary {
    pub ops: u64,
    pub ops_per_second: f64,
}

impl Args {
    pub fn job(self) -> anyhow::Result<Job> {
        let params = self.core.params;
        if self.ops == 0 || self.ops > MAX_OPS {
            bail!("--ops {} is not allowed (allowed: 1..={MAX_OPS})", self.ops);
        }
        if self.trace.is_some() && self.ops > MAX_TRACED_OPS {
            bail!("--ops {} with --trace is not allowed (allowed: 1..={MAX_TRACED_OPS}; the VCD records every cycle)", self.ops);
        }
        let fpr_inserts = self
            .fpr_inserts
            .unwrap_or((params.bank_size() as f64 * std::f64::consts::LN_2).round() as u64);
        let max_inserts = 1u64 << 32;
        if fpr_inserts == 0 || fpr_inserts > max_inserts {
            bail!("--fpr-inserts {fpr_inserts} is not allowed (allowed: 1..={max_inserts})");
        }
        if self.fpr_queries == 0 && self.fpr_inserts.is_some() {
            bail!(
                "--fpr-inserts {fpr_inserts} with --fpr-queries 0 is not allowed: \
                 --fpr-queries 0 skips the false-positive measurement those inserts are for"
            );
        }
        if self.fpr_queries > MAX_OPS {
            bail!(
                "--fpr-queries {} is not allowed (allowed: 0..={MAX_OPS})",
                self.fpr_queries
            );
        }
        if let Some(l) = self.lanes {
            hdl::lanes::check_lanes(&params, l as usize)?;
            if self.checkpoint_every != DEFAULT_CHECKPOINT_EVERY {
                bail!("--checkpoint-every with --lanes is not allowed: the lanes' co-simulation checks every response beat and reads no image back");
            }
            if self.fpr_queries != DEFAULT_FPR_QUERIES {
                bail!("--fpr-queries with --lanes is not allowed: the false-positive rate is measured on the core (bloom sim without --lanes)");
            }
        }
        let shards = match self.shards {
            Some(s) if s == 0 || s > MAX_SHARDS => {
                bail!("--shards {s} is not allowed (allowed: 1..={MAX_SHARDS})")
            }
            Some(s) if s > 1 && self.trace.is_some() => {
                bail!("--shards {s} with --trace is not allowed (a trace records one core: use --shards 1)")
            }
            Some(s) => s,
            None if self.trace.is_some() => 1,
            None => std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
                .min(MAX_SHARDS),
        };
        Ok(Job {
            params,
            ops: self.ops,
            traffic_seed: self.traffic_seed,
            traffic: self.traffic,
            checkpoint_every: self.checkpoint_every,
            trace: self.trace,
            // Every shard gets at least one operation.
            shards: shards.min(self.ops as usize),
            fpr_inserts,
            fpr_queries: self.fpr_queries,
            netlist: self.netlist,
            preload: self.preload,
            lanes: self.lanes.map(|l| l as usize),
            replica_ports: crate::cli::replica_ports(
                self.replica_ports,
                hdl::lanes::ReplicaPorts::One,
            ),
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.sweep {
        return sweep(args);
    }
    let job = args.job()?;
    match job.lanes {
        Some(l) => lanes::execute(&job, l)?,
        None => execute(&job)?,
    };
    Ok(())
}

/// `--sweep`: every corner configuration with the options given; a summary
/// line per configuration; an error if any had a mismatch.
fn sweep(args: Args) -> anyhow::Result<()> {
    let corners = sim::corner_configs();
    outln!(
        "sweep: {} corner configurations, {} operations each, netlist {}",
        corners.len(),
        args.ops,
        args.netlist
    );
    let mut failed = Vec::new();
    let mut lines = Vec::new();
    for params in corners {
        let fpr_inserts = args.fpr_inserts;
        let job = Args {
            core: CoreArgs { params },
            fpr_inserts,
            sweep: false,
            trace: None,
            preload: None,
            ..args_copy(&args)
        }
        .job()?;
        outln!();
        match execute(&job) {
            Ok(s) => lines.push(format!(
                "  {params}: {} operations, 0 mismatches, {:.0} operations/s",
                s.ops, s.ops_per_second
            )),
            Err(e) => {
                lines.push(format!("  {params}: FAILED: {e:#}"));
                failed.push(params.to_string());
            }
        }
    }
    outln!("\nsweep summary ({}):", args.netlist);
    for l in &lines {
        outln!("{l}");
    }
    if !failed.is_empty() {
        bail!(
            "{} of {} configurations failed: {}",
            failed.len(),
            lines.len(),
            failed.join("; ")
        );
    }
    Ok(())
}

fn args_copy(a: &Args) -> Args {
    Args {
        ops: a.ops,
        core: CoreArgs {
            params: a.core.params,
        },
        traffic_seed: a.traffic_seed,
        traffic: a.traffic,
        checkpoint_every: a.checkpoint_every,
        trace: None,
        shards: a.shards,
        fpr_inserts: a.fpr_inserts,
        fpr_queries: a.fpr_queries,
        netlist: a.netlist,
        preload: None,
        sweep: false,
        lanes: a.lanes,
        replica_ports: a.replica_ports,
    }
}

/// Runs the co-simulation of `job`, printing its report; an error if any
/// cycle disagreed with the golden model.
pub fn execute(job: &Job) -> anyhow::Result<Summary> {
    let trace = job.trace.as_deref().map(TraceFile::prepare).transpose()?;
    print_job(job);
    let mut cosims = open_cosims(job, trace.as_ref())?;
    if job.preload.is_some() {
        check_preload(job, &mut cosims)?;
    }
    let (reports, seconds) = run_traffic(job, &mut cosims)?;
    let ops: u64 = reports.iter().map(|r| r.ops).sum();
    print_reports(job, &reports, seconds);
    finish(job, cosims, trace)?;
    Ok(Summary {
        ops,
        ops_per_second: ops as f64 / seconds.max(1e-9),
    })
}

/// The configuration, the traffic, the preloaded image and what is simulated.
fn print_job(job: &Job) {
    outln!(
        "configuration: {}; {} traffic (seed {})",
        job.params,
        job.traffic.name(),
        job.traffic_seed
    );
    if let Some(dir) = &job.preload {
        outln!("preload: {}", dir.display());
    }
    outln!("netlist: {} ({})", job.netlist, job.netlist.describe());
}

/// The Verilated core built (or found cached) for `job`, tracing into
/// `trace`'s file when there is one, and one co-simulation per shard (the
/// first on the core built, the others on new instances of its model).
fn open_cosims(job: &Job, trace: Option<&TraceFile>) -> anyhow::Result<Vec<CoSim>> {
    let spec = hdl::CoreConfig {
        preload: job.preload.clone(),
        ..hdl::CoreConfig::from(job.params)
    };
    let build_started = Instant::now();
    let progress = flow::tools::Progress::new("  ");
    let built = sim::core::build_core(
        &spec,
        job.netlist,
        trace.is_some(),
        sim::PowerUp::default(),
        &progress,
    )?;
    if let Some(dir) = &built.netlist.dir {
        match built.tool_seconds {
            Some(s) => outln!(
                "netlist tools: ran in {s:.1} s ({}; every tool's log there)",
                dir.display()
            ),
            None => outln!("netlist tools: cached ({})", dir.display()),
        }
        for t in &built.netlist.tools {
            outln!("  {t}");
        }
    }
    let mut core = built.core;
    match core.library.build_seconds() {
        Some(s) => outln!(
            "verilator model: built in {s:.1} s ({})",
            core.library.path().display()
        ),
        None => outln!(
            "verilator model: cached ({}; loaded in {:.2} s)",
            core.library.path().display(),
            build_started.elapsed().as_secs_f64()
        ),
    }
    outln!(
        "timing: latency {} cycles, clear {} cycles, readback latency {} cycles, response FIFO {}",
        core.timing.latency,
        core.timing.clear_cycles,
        core.timing.readback_latency,
        core.timing.response_fifo_depth
    );
    if let Some(t) = trace {
        core.model.trace_open(t.temp())?;
    }
    let mut cosims = Vec::with_capacity(job.shards);
    for _ in 1..job.shards {
        cosims.push(CoSim::from_core(core.new_instance()?)?);
    }
    cosims.insert(0, CoSim::from_core(core)?);
    Ok(cosims)
}

/// The image the banks start with, read back bit by bit before any traffic
/// (the fill counters are compared in every cycle of the recount and of the
/// readback).
fn check_preload(job: &Job, cosims: &mut [CoSim]) -> anyhow::Result<()> {
    for c in cosims.iter_mut() {
        c.check_image(&mut sim::traffic::ReadyPattern::default())?;
    }
    let wrong = cosims[0].checker.mismatches;
    outln!(
        "preload read back: {} bits, {wrong} mismatches",
        job.params.k as u64 * job.params.bank_size() as u64
    );
    Ok(())
}

/// `job.ops` operations of its traffic over the shards, with a progress line
/// every two seconds; one report per shard and the wall time.
fn run_traffic(job: &Job, cosims: &mut [CoSim]) -> anyhow::Result<(Vec<sim::RunReport>, f64)> {
    let shape = match job.traffic {
        TrafficArg::Stress => TrafficShape::stress_for(job.params.key_bits, &cosims[0].core.timing),
        TrafficArg::Saturating => TrafficShape::saturating(job.params.key_bits),
    };
    let opts = RunOptions {
        ops: job.ops,
        traffic_seed: job.traffic_seed,
        shape,
        batch: 1 << 15,
        checkpoint_every: job.checkpoint_every,
    };
    let started = Instant::now();
    let mut last = Instant::now();
    let mut progress = |done: u64, total: u64| {
        if last.elapsed().as_secs_f64() >= 2.0 && done < total {
            last = Instant::now();
            let rate = done as f64 / started.elapsed().as_secs_f64();
            eprintln!(
                "progress: {done}/{total} operations ({:.0}%), {:.2}M ops/s",
                100.0 * done as f64 / total as f64,
                rate / 1e6
            );
            let _ = std::io::stderr().flush();
        }
    };
    let shards = job.shards;
    Ok(if shards == 1 {
        let report = cosims[0].run(&opts, &mut progress)?;
        let seconds = report.seconds;
        (vec![report], seconds)
    } else {
        outln!(
            "shards: {shards} independent co-simulations, one thread each (traffic seeds {}); operations and cycles below are their sums",
            (0..shards).map(|i| sim::shard_traffic_seed(job.traffic_seed, i).to_string()).collect::<Vec<_>>().join(", ")
        );
        run_sharded(cosims, &opts, &mut progress)?
    })
}

/// What the shards' runs found, summed: operations, cycles, image checks,
/// mismatches, counting events, speed and CPU time.
fn print_reports(job: &Job, reports: &[sim::RunReport], seconds: f64) {
    let ops: u64 = reports.iter().map(|r| r.ops).sum();
    let cycles: u64 = reports.iter().map(|r| r.traffic_cycles).sum();
    outln!("operations: {ops}");
    outln!("cycles: {cycles}");
    outln!(
        "operations per cycle: {:.4}",
        ops as f64 / cycles.max(1) as f64
    );
    outln!(
        "image checks: {} (memory image and fill counters vs golden)",
        reports.iter().map(|r| r.image_checks).sum::<u32>()
    );
    outln!(
        "mismatches: {}",
        reports.iter().map(|r| r.mismatches).sum::<u64>()
    );
    if job.params.counter_bits > 1 {
        let mut events = sim::checker::CountingEvents::default();
        for r in reports {
            events.add(&r.counting);
        }
        outln!(
            "counting (counters of {} bits, saturated at {}): {events}",
            job.params.counter_bits,
            (1u32 << job.params.counter_bits) - 1
        );
    }
    outln!(
        "simulation speed: {:.0} operations/s ({seconds:.2} s, golden model and checks included)",
        ops as f64 / seconds.max(1e-9)
    );
    if job.shards == 1 {
        if let (Some(sim_cpu), Some(worker_cpu)) = (
            reports[0].simulator_cpu_seconds,
            reports[0].worker_cpu_seconds,
        ) {
            outln!(
                "cpu time: simulator thread {sim_cpu:.2} s, golden model and checker thread {worker_cpu:.2} s (wall time counts other load on the machine)"
            );
        }
    } else if reports.iter().all(|r| r.simulator_cpu_seconds.is_some()) {
        outln!(
            "cpu time per shard thread: {} (wall time counts other load on the machine)",
            reports
                .iter()
                .map(|r| format!("{:.2} s", r.simulator_cpu_seconds.unwrap_or(0.0)))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// After the traffic: the false-positive rate measured on the first shard
/// (when nothing disagreed so far), the trace closed and put in place, and an
/// error naming every shard's first mismatches if there were any.
fn finish(job: &Job, mut cosims: Vec<CoSim>, trace: Option<TraceFile>) -> anyhow::Result<()> {
    let mut cosim = cosims.remove(0);
    let others = cosims;

    let mut mismatches = cosim.checker.mismatches;
    if job.fpr_queries > 0 && mismatches == 0 {
        let m = measure_fpr(
            &mut cosim,
            job.fpr_inserts,
            job.fpr_queries,
            job.traffic_seed ^ 0xF0F0,
        )?;
        let (lo, hi) = m.interval95();
        outln!(
            "false-positive rate: measured {:.6} ({} of {} fresh keys after {} inserts), exact {:.6} (95% interval {:.6} .. {:.6}, z = {:+.2})",
            m.measured,
            m.false_positives,
            m.queries,
            m.inserted,
            m.exact,
            lo.max(0.0),
            hi,
            m.z()
        );
        mismatches = cosim.checker.mismatches;
    }
    mismatches += others.iter().map(|c| c.checker.mismatches).sum::<u64>();
    cosim.core.model.trace_close();
    if let Some(t) = trace {
        t.commit()?;
        outln!(
            "trace: {}",
            job.trace
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        );
    }
    if mismatches > 0 {
        for (i, c) in std::iter::once(&cosim).chain(others.iter()).enumerate() {
            for m in &c.checker.first {
                if job.shards > 1 {
                    eprintln!("mismatch (shard {i}): {m}");
                } else {
                    eprintln!("mismatch: {m}");
                }
            }
        }
        bail!(
            "{mismatches} mismatches between the Verilated core ({}) and the golden model",
            job.netlist
        );
    }
    Ok(())
}
