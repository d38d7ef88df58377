//! `bloom run`: the default pipeline, end to end, on one configuration.
//!
//! 1. the configuration, a sample of the golden model and its exact
//!    false-positive rate;
//! 2. the core's Verilog (`bloom verilog`);
//! 3. a co-simulation of the Verilated core against the golden model
//!    (`bloom sim`);
//! 4. the bitstream and its report for a board (`bloom build`);
//!
//! and a short summary. Each later step is the subcommand's own function,
//! given the same validated values the subcommand builds from its options,
//! so the pipeline never drifts from them.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};

use crate::cli::config::{board_parser, CoreArgs};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub core: CoreArgs,
    /// Operations in the co-simulation step (1..=10^9).
    #[arg(long, default_value_t = 1_000_000)]
    pub ops: u64,
    /// Board for the bitstream step (flow/src/board.rs).
    #[arg(long, default_value = "icebreaker", value_parser = board_parser())]
    pub board: &'static flow::board::Board,
    /// Output directory for every step's files (verilog/, BOARD/).
    #[arg(long, default_value = "build/run")]
    pub out: PathBuf,
    /// Stop after the co-simulation (no Yosys/nextpnr run).
    #[arg(long = "no-bitstream")]
    pub no_bitstream: bool,
}

fn banner(n: u32, title: &str) {
    outln!("\n=== step {n}: {title} ===");
}

/// The sample's i-th key: two SplitMix64 outputs from a seed of its own (any
/// seeded generator would do; this one is already in the golden crate).
fn sample_key(i: u64, key_bits: u32) -> u128 {
    const SAMPLE_SEED: u64 = 0x5EED_0000;
    let word = |j: u64| golden::hash::splitmix64_output(SAMPLE_SEED, j) as u128;
    let wide = (word(2 * i) << 64) | word(2 * i + 1);
    if key_bits >= 128 {
        wide
    } else {
        wide & ((1u128 << key_bits) - 1)
    }
}

struct GoldenSample {
    inserted: u64,
    measured: f64,
    exact: f64,
    estimated_items: f64,
}

fn golden_step(cfg: &golden::CoreParams) -> anyhow::Result<GoldenSample> {
    let bank = 1u64 << cfg.bank_bits;
    let m = bank * cfg.k as u64;
    outln!("configuration: {cfg}");
    outln!(
        "  {} banks of {} bits = {} bits; {}-bit keys; hash {} seed {}",
        cfg.k,
        bank,
        m,
        cfg.key_bits,
        cfg.hash,
        cfg.seed
    );
    // The fill at which the partitioned filter's rate is lowest for this size.
    let n = ((bank as f64) * std::f64::consts::LN_2).round().max(1.0) as u64;
    let exact = golden::theory::partitioned_exact(m, n, cfg.k)?;
    let standard = golden::theory::standard_exact(m, n, cfg.k)?;
    let classic = golden::theory::classic(m, n, cfg.k)?;
    outln!("theory at n = {n} items (2^b ln 2): partitioned exact {exact:.4e}, standard exact {standard:.4e}, classic {classic:.4e}");

    // A counting filter (counter_bits > 1) answers queries as its 0-1 projection
    // (contract §7.5), which the rest of this step measures; with c = 1 the projection
    // is the plain filter itself.
    let mut counting = golden::CountingFilter::from_config(*cfg)?;
    for i in 0..n {
        counting.insert(sample_key(i, cfg.key_bits))?;
    }
    for i in 0..n {
        if !counting.query(sample_key(i, cfg.key_bits))? {
            bail!("golden model lost inserted key #{i}: a false negative");
        }
    }
    if cfg.is_counting() {
        outln!(
            "counting filter: {}-bit counters; saturated counters per bank after {n} inserts: {:?}",
            cfg.counter_bits,
            counting.saturated()
        );
    }
    let filter = counting.to_plain();
    let fresh = 200_000u64;
    let mut hits = 0u64;
    for i in 0..fresh {
        hits += filter.query(sample_key(n + 1_000_000 + i, cfg.key_bits))? as u64;
    }
    let measured = hits as f64 / fresh as f64;
    let se = (exact * (1.0 - exact) / fresh as f64).sqrt();
    outln!(
        "golden model: inserted {n} keys, all {n} found again; fill per bank {:?}",
        filter.fill()
    );
    outln!(
        "  {hits} false positives in {fresh} fresh keys: measured {measured:.4e} vs exact {exact:.4e} ({:+.2} standard errors)",
        (measured - exact) / se
    );
    outln!(
        "  live estimates from the fill: {:.0} items (inserted {n}), false-positive rate {:.4e}",
        filter.estimated_items(),
        filter.fpr_estimate()
    );
    Ok(GoldenSample {
        inserted: n,
        measured,
        exact,
        estimated_items: filter.estimated_items(),
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ops == 0 || args.ops > 1_000_000_000 {
        bail!(
            "--ops {} is not allowed (allowed: 1..=1000000000)",
            args.ops
        );
    }
    let cfg = args.core.params;
    // Every step after the golden model needs the core; refuse before writing anything.
    hdl::CoreConfig::from(cfg).validate()?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let started = Instant::now();

    banner(1, "golden model and theory");
    let sample = golden_step(&cfg)?;

    banner(2, "Verilog");
    let verilog_dir = args.out.join("verilog");
    let core = crate::cli::verilog::write(&crate::cli::verilog::Job {
        core: cfg.into(),
        out: verilog_dir.clone(),
        lanes: None,
        replica_ports: Default::default(),
    })?;

    banner(3, "co-simulation: Verilated core against the golden model");
    let sim_job = crate::cli::sim::Args::defaults_for(cfg, args.ops).job()?;
    let checked = crate::cli::sim::execute(&sim_job)?;

    let mut bitstream_summary = String::from("skipped (--no-bitstream)");
    if !args.no_bitstream {
        let board = args.board;
        banner(4, &format!("bitstream for {}", board.name));
        let board_dir = args.out.join(board.name);
        let job = crate::cli::build::Job {
            board,
            core: cfg,
            scrub: false,
            scrub_every: None,
            preload: None,
            top: crate::cli::build::TopArg::UartBridge,
            lanes: 1,
            baud: hdl::bridge::DEFAULT_BAUD,
            out: board_dir.clone(),
            pnr_seed: 1,
            freq: None,
            flash: false,
            quiet: false,
        };
        let report = crate::cli::build::execute(&job)?;
        bitstream_summary = format!(
            "{} in {} (report: {})\n             routed Fmax {:.1} MHz, clocked at {:.2} MHz",
            report.bitstream,
            board_dir.display(),
            board_dir.join(flow::build::REPORT_TXT).display(),
            report.routed_fmax_mhz,
            report.constrained_mhz
        );
        if let Some(uart) = &report.uart {
            bitstream_summary.push_str(&format!(
                "\n             UART host bridge at {} baud: bloom host --port /dev/ttyUSB1 --baud {} {} stats",
                uart.baud,
                uart.baud,
                CoreArgs::command_line(&cfg)
            ));
        }
    }

    outln!(
        "\n=== summary ({:.0} s) ===",
        started.elapsed().as_secs_f64()
    );
    outln!("filter:      {cfg}");
    outln!(
        "theory:      {} items -> exact false-positive rate {:.3e}; the golden model measured {:.3e} and estimates {:.0} items from its fill",
        sample.inserted, sample.exact, sample.measured, sample.estimated_items
    );
    outln!(
        "hardware:    {}/bloom_core.v, latency {} cycles, one operation per clock",
        verilog_dir.display(),
        core.timing.latency
    );
    outln!(
        "co-sim:      {} operations checked cycle by cycle against the golden model: no mismatch",
        checked.ops
    );
    outln!("bitstream:   {bitstream_summary}");
    outln!("next:        bloom --help; README.md explains each step");
    Ok(())
}
