//! `bloom build`: the core on a board, through Yosys, nextpnr and the packer,
//! to a bitstream and a report (see flow/src/build.rs for the steps and the
//! way the clock is chosen).

use std::path::PathBuf;

use crate::cli::config::CoreArgs;

#[derive(clap::Args)]
pub struct Args {
    /// Board: icebreaker, hx8k, ulx3s (= ulx3s-85f), ulx3s-12f, ulx3s-25f, ulx3s-45f, ulx3s-85f.
    #[arg(long)]
    pub board: String,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Output directory: bitstream, report.json, report.txt, and one passN-FREQ/
    /// directory per place-and-route run with every tool's log. Default build/BOARD.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// nextpnr's placement seed (--seed is the core's hash seed).
    #[arg(long = "pnr-seed", default_value_t = 1)]
    pub pnr_seed: u64,
    /// Core clock in MHz: the build uses the fastest clock the board can make at or
    /// below it and fails if timing is not met. Default: chosen from achieved timing
    /// (a run at a conservative clock, then one near its routed Fmax).
    #[arg(long)]
    pub freq: Option<f64>,
    /// Load the bitstream into an attached board with openFPGALoader (volatile).
    #[arg(long)]
    pub flash: bool,
    /// No progress messages.
    #[arg(long)]
    pub quiet: bool,
}

pub fn core_netlist(core: &CoreArgs) -> anyhow::Result<flow::CoreNetlist> {
    let cfg = crate::cli::verilog::core_config(core, None)?;
    Ok(flow::CoreNetlist::generate(&cfg)?)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let board = flow::board::board(&args.board)?;
    let core = core_netlist(&args.core)?;
    if args.flash {
        // Before hours of place and route, not after.
        flow::tools::Tool::OpenFpgaLoader.locate()?;
    }
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("build").join(board.name));
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", out.display());
    }
    let progress = if args.quiet { flow::tools::Progress::quiet() } else { flow::tools::Progress::new("[build] ") };
    let opts = flow::build::BuildOptions {
        board,
        out_dir: out.clone(),
        pnr_seed: args.pnr_seed,
        freq_mhz: args.freq,
        logic: &flow::top::TestPattern,
        progress: progress.clone(),
    };
    let report = flow::build::build(&core, &opts)?;
    println!("bloom build: {}", board.title);
    print!("{}", report.table());
    if args.flash {
        let bit = PathBuf::from(&report.bitstream);
        flow::steps::program(board, &bit, &out.join("program.log"), &progress)?;
        println!("programmed the {} (volatile: lost at power-off)", board.title);
    }
    Ok(())
}
