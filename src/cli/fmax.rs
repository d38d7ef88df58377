//! `bloom fmax`: the core's routed maximum frequency on a part over several
//! nextpnr seeds, beside a bare block-RAM loop on the same part, and with
//! `--axi` the AXI wrapper's beside it (see flow/src/fmax.rs).

use std::path::PathBuf;

use crate::cli::config::{CoreArgs, DeviceParser};

#[derive(clap::Args)]
pub struct Args {
    /// Device (flow/src/board.rs).
    #[arg(long, value_parser = DeviceParser)]
    pub device: &'static flow::board::Device,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Number of nextpnr seeds (1, 2, ... N) for each design.
    #[arg(long, default_value_t = 3)]
    pub seeds: u32,
    /// nextpnr's timing target in MHz for both designs (default: per device, above both).
    #[arg(long = "target-mhz")]
    pub target_mhz: Option<f64>,
    /// Working directory for netlists and logs. Default build/fmax-DEVICE.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also place and route the AXI wrapper (bloom_axis, docs/axi.md) around the
    /// same core: its Fmax beside the bare core's, and its LUTs and flip-flops.
    #[arg(long)]
    pub axi: bool,
    /// Print one JSON object (device, fmax_mhz_median, bram_loop_fmax_mhz_median,
    /// ratio, luts, ffs, brams; with --axi also axi_fmax_mhz_median,
    /// axi_ratio_to_core, axi_luts, axi_ffs, axi_wrapper_luts, axi_wrapper_ffs) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// No progress messages.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let device = args.device;
    let core = flow::generate_core(&args.core.params.into())?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("build").join(format!("fmax-{}", device.name)));
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", out.display());
    }
    let opts = flow::fmax::FmaxOptions {
        device,
        seeds: args.seeds,
        target_mhz: args.target_mhz,
        out_dir: out.clone(),
        progress: if args.quiet { flow::tools::Progress::quiet() } else { flow::tools::Progress::new("[fmax] ") },
        axi: args.axi,
    };
    let report = flow::fmax::measure(&core, &opts)?;
    let full = serde_json::to_string_pretty(&report)? + "\n";
    std::fs::write(out.join("fmax.json"), full)?;
    if args.json {
        println!("{}", report.summary_json());
    } else {
        print!("{}", report.table());
        println!("  full report      {}", out.join("fmax.json").display());
    }
    Ok(())
}
