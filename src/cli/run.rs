//! `bloom run`: the default pipeline, end to end, on one configuration.
//!
//! 1. the configuration, a sample of the golden model and its exact
//!    false-positive rate;
//! 2. the core's Verilog (`bloom verilog`);
//! 3. a co-simulation of the Verilated core against the golden model
//!    (`bloom sim`);
//! 4. the bitstream and its report for a board (`bloom build`);
//!
//! and a short summary. Each later step is the subcommand itself, run with the
//! same arguments a user would type, so the pipeline never drifts from them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Parser;

use crate::cli::config::{CoreArgs, HashArg};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub core: CoreArgs,
    /// Operations in the co-simulation step (1..=10^9).
    #[arg(long, default_value_t = 1_000_000)]
    pub ops: u64,
    /// Board for the bitstream step: icebreaker, hx8k, ulx3s, ulx3s-12f/25f/45f/85f.
    #[arg(long, default_value = "icebreaker")]
    pub board: String,
    /// Output directory for every step's files (verilog/, BOARD/).
    #[arg(long, default_value = "build/run")]
    pub out: PathBuf,
    /// Stop after the co-simulation (no Yosys/nextpnr run).
    #[arg(long = "no-bitstream")]
    pub no_bitstream: bool,
}

/// Parses a subcommand's own arguments exactly as the command line would.
#[derive(Parser)]
#[command(no_binary_name = true)]
struct StepArgs<T: clap::Args> {
    #[command(flatten)]
    inner: T,
}

fn step_args<T: clap::Args>(argv: &[String]) -> anyhow::Result<T> {
    Ok(StepArgs::<T>::try_parse_from(argv).context("internal: bad step arguments")?.inner)
}

fn core_argv(core: &CoreArgs) -> Vec<String> {
    let hash = match core.hash {
        HashArg::H3 => "h3",
        HashArg::Crc => "crc",
    };
    [
        "--k".to_string(),
        core.k.to_string(),
        "--bank-bits".to_string(),
        core.bank_bits.to_string(),
        "--key-bits".to_string(),
        core.key_bits.to_string(),
        "--hash".to_string(),
        hash.to_string(),
        "--seed".to_string(),
        core.seed.to_string(),
    ]
    .to_vec()
}

fn banner(n: u32, title: &str) {
    println!("\n=== step {n}: {title} ===");
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

fn golden_step(cfg: &golden::Config) -> anyhow::Result<GoldenSample> {
    let bank = 1u64 << cfg.bank_bits;
    let m = bank * cfg.k as u64;
    println!("configuration: {cfg}");
    println!("  {} banks of {} bits = {} bits; {}-bit keys; hash {} seed {}", cfg.k, bank, m, cfg.key_bits, cfg.hash, cfg.seed);
    // The fill at which the partitioned filter's rate is lowest for this size.
    let n = ((bank as f64) * std::f64::consts::LN_2).round().max(1.0) as u64;
    let exact = golden::theory::partitioned_exact(m, n, cfg.k)?;
    let standard = golden::theory::standard_exact(m, n, cfg.k)?;
    let classic = golden::theory::classic(m, n, cfg.k)?;
    println!("theory at n = {n} items (2^b ln 2): partitioned exact {exact:.4e}, standard exact {standard:.4e}, classic {classic:.4e}");

    let mut filter = golden::PartitionedFilter::try_new(cfg.clone())?;
    for i in 0..n {
        filter.insert(sample_key(i, cfg.key_bits))?;
    }
    for i in 0..n {
        if !filter.query(sample_key(i, cfg.key_bits))? {
            bail!("golden model lost inserted key #{i}: a false negative");
        }
    }
    let fresh = 200_000u64;
    let mut hits = 0u64;
    for i in 0..fresh {
        hits += filter.query(sample_key(n + 1_000_000 + i, cfg.key_bits))? as u64;
    }
    let measured = hits as f64 / fresh as f64;
    let se = (exact * (1.0 - exact) / fresh as f64).sqrt();
    println!("golden model: inserted {n} keys, all {n} found again; fill per bank {:?}", filter.fill());
    println!(
        "  {hits} false positives in {fresh} fresh keys: measured {measured:.4e} vs exact {exact:.4e} ({:+.2} standard errors)",
        (measured - exact) / se
    );
    println!(
        "  live estimates from the fill: {:.0} items (inserted {n}), false-positive rate {:.4e}",
        filter.estimated_items(),
        filter.fpr_estimate()
    );
    Ok(GoldenSample { inserted: n, measured, exact, estimated_items: filter.estimated_items() })
}

fn read_json(path: &Path) -> anyhow::Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", path.display()))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ops == 0 || args.ops > 1_000_000_000 {
        bail!("--ops {} is not allowed (allowed: 1..=1000000000)", args.ops);
    }
    let cfg = args.core.golden_config()?;
    if !args.no_bitstream {
        flow::board::board(&args.board)?;
    }
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let started = Instant::now();

    banner(1, "golden model and theory");
    let sample = golden_step(&cfg)?;

    banner(2, "Verilog");
    let verilog_dir = args.out.join("verilog");
    let mut argv = core_argv(&args.core);
    argv.extend(["--out".to_string(), verilog_dir.display().to_string()]);
    crate::cli::verilog::run(step_args(&argv)?)?;
    let core_json = read_json(&verilog_dir.join("bloom_core.json"))?;

    banner(3, "co-simulation: Verilated core against the golden model");
    let mut argv = core_argv(&args.core);
    argv.extend(["--ops".to_string(), args.ops.to_string()]);
    crate::cli::sim::run(step_args(&argv)?)?;

    let mut bitstream_summary = String::from("skipped (--no-bitstream)");
    if !args.no_bitstream {
        banner(4, &format!("bitstream for {}", args.board));
        let board_dir = args.out.join(&args.board);
        let mut argv = core_argv(&args.core);
        argv.extend([
            "--board".to_string(),
            args.board.clone(),
            "--out".to_string(),
            board_dir.display().to_string(),
        ]);
        crate::cli::build::run(step_args(&argv)?)?;
        let report = read_json(&board_dir.join("report.json"))?;
        bitstream_summary = format!(
            "{} in {} (report: {})",
            report.get("bitstream").and_then(|v| v.as_str()).unwrap_or("bitstream"),
            board_dir.display(),
            board_dir.join("report.txt").display()
        );
        if let (Some(fmax), Some(freq)) = (
            report.get("routed_fmax_mhz").and_then(|v| v.as_f64()),
            report.get("constrained_mhz").and_then(|v| v.as_f64()),
        ) {
            bitstream_summary.push_str(&format!("\n             routed Fmax {fmax:.1} MHz, clocked at {freq:.2} MHz"));
        }
        if let Some(baud) = report.pointer("/uart/baud").and_then(|v| v.as_u64()) {
            bitstream_summary.push_str(&format!(
                "\n             UART host bridge at {baud} baud: bloom host --port /dev/ttyUSB1 --baud {baud} {} stats",
                core_argv(&args.core).join(" ")
            ));
        }
    }

    println!("\n=== summary ({:.0} s) ===", started.elapsed().as_secs_f64());
    println!("filter:      {cfg}");
    println!(
        "theory:      {} items -> exact false-positive rate {:.3e}; the golden model measured {:.3e} and estimates {:.0} items from its fill",
        sample.inserted, sample.exact, sample.measured, sample.estimated_items
    );
    println!(
        "hardware:    {}/bloom_core.v, latency {} cycles, one operation per clock",
        verilog_dir.display(),
        core_json.get("latency").map(|v| v.to_string()).unwrap_or_else(|| "?".into())
    );
    println!("co-sim:      {} operations checked cycle by cycle against the golden model: no mismatch", args.ops);
    println!("bitstream:   {bitstream_summary}");
    println!("next:        bloom --help; README.md explains each step");
    Ok(())
}
