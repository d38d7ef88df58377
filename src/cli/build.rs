//! `bloom build`: the core on a board, through Yosys, nextpnr and the packer,
//! to a bitstream and a report (see flow/src/build.rs for the steps and the
//! way the clock is chosen). By default the board top holds the UART host
//! bridge (flow/src/bridge.rs), so `bloom host --port` can use the bitstream;
//! `--top test-pattern` builds the LFSR test pattern instead.

use std::path::PathBuf;

use crate::cli::config::{board_parser, CoreArgs, ScrubArgs};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TopArg {
    /// The UART host bridge of docs/protocol.md in front of the core (for `bloom host --port`).
    #[value(alias = "bridge")]
    UartBridge,
    /// The core fed by an LFSR (insert a key, query it back), results on the LEDs; no UART.
    TestPattern,
}

#[derive(clap::Args)]
pub struct Args {
    /// Board (flow/src/board.rs).
    #[arg(long, value_parser = board_parser())]
    pub board: &'static flow::board::Board,
    #[command(flatten)]
    pub core: CoreArgs,
    /// The core's scrub (--top uart-bridge only): `bloom host scrub` requests it.
    #[command(flatten)]
    pub scrub: ScrubArgs,
    /// Memory image directory (docs/contract.md §4, e.g. from `bloom image build`): the
    /// bitstream's banks start with it. Its configuration must be the core options'.
    /// Without it the banks start empty. Either way the filter can be replaced later
    /// with `bloom image swap`, without synthesis or place and route.
    #[arg(long)]
    pub preload: Option<PathBuf>,
    /// What the board top holds: uart-bridge (the host bridge, for `bloom host --port`)
    /// or test-pattern (LFSR traffic, results on the LEDs, no UART).
    #[arg(long, value_enum, default_value_t = TopArg::UartBridge)]
    pub top: TopArg,
    /// Lanes of the core, 1..=128 (docs/core.md, "Lanes"): more than 1 builds the test
    /// pattern over `bloom_lanes` (L replicas of the banks, L queries per read beat), so
    /// --top test-pattern only; a plain or a counting filter. The part must hold lane 0's
    /// banks and a replica of each per query lane (1 bit per address) and (iCE40) the
    /// lanes' logic cells by an estimate from the configuration, else the build is
    /// refused before any tool runs; a synthesised design over the part's logic is
    /// refused before nextpnr (docs/core.md, "What fits a part").
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=hdl::lanes::MAX_LANES as i64))]
    pub lanes: u32,
    /// UART line rate of the bridge, 300..=12000000 [default: 115200]. The core clock
    /// must make it within 2% with at least 4 clocks per bit; `bloom host --baud` must match.
    #[arg(long)]
    pub baud: Option<u32>,
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

/// What `bloom build` does, validated.
pub struct Job {
    pub board: &'static flow::board::Board,
    pub core: hdl::CoreParams,
    /// The core's scrub, and its period.
    pub scrub: bool,
    pub scrub_every: Option<u32>,
    /// Image the banks start with.
    pub preload: Option<PathBuf>,
    pub top: TopArg,
    /// 1, or more with the test pattern (checked against the filter by hdl::lanes::check_lanes).
    pub lanes: usize,
    pub baud: u32,
    pub out: PathBuf,
    pub pnr_seed: u64,
    pub freq: Option<f64>,
    pub flash: bool,
    pub quiet: bool,
}

impl Args {
    pub fn job(self) -> anyhow::Result<Job> {
        if self.top == TopArg::TestPattern && self.baud.is_some() {
            anyhow::bail!("--baud applies to --top uart-bridge only: the test pattern has no UART");
        }
        if self.scrub.scrub && self.top != TopArg::UartBridge {
            anyhow::bail!(
                "--scrub applies to --top uart-bridge only: the test pattern never requests a scrub \
                 nor reads its result (bloom host scrub does, over the bridge)"
            );
        }
        let lanes = self.lanes as usize;
        if lanes > 1 {
            if self.top != TopArg::TestPattern {
                anyhow::bail!(
                    "--lanes {lanes} needs --top test-pattern: the UART bridge drives one operation per clock \
                     (build it with --lanes 1, the default)"
                );
            }
            hdl::lanes::check_lanes(&self.core.params, lanes)?;
        }
        let out = self
            .out
            .unwrap_or_else(|| PathBuf::from("build").join(self.board.name));
        Ok(Job {
            board: self.board,
            core: self.core.params,
            scrub: self.scrub.scrub,
            scrub_every: self.scrub.scrub_every,
            preload: self.preload,
            top: self.top,
            lanes,
            baud: self.baud.unwrap_or(hdl::bridge::DEFAULT_BAUD),
            out,
            pnr_seed: self.pnr_seed,
            freq: self.freq,
            flash: self.flash,
            quiet: self.quiet,
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    execute(&args.job()?)?;
    Ok(())
}

/// Builds the bitstream of `job` and prints its report.
pub fn execute(job: &Job) -> anyhow::Result<flow::build::BuildReport> {
    let board = job.board;
    let core = flow::generate_core(&hdl::CoreConfig {
        preload: job.preload.clone(),
        scrub: job.scrub,
        scrub_every: job.scrub_every,
        ..job.core.into()
    })?;
    let logic: Box<dyn flow::top::BoardLogic> = match job.top {
        TopArg::UartBridge => Box::new(
            flow::bridge::UartBridge::new(job.core, job.baud)
                .with_scrub(job.scrub, job.scrub_every),
        ),
        TopArg::TestPattern => Box::new(flow::top::TestPattern::over_lanes(job.lanes)),
    };
    if job.flash {
        // Before hours of place and route, not after.
        flow::tools::Tool::OpenFpgaLoader.locate()?;
    }
    let out = &job.out;
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", out.display());
    }
    let progress = if job.quiet {
        flow::tools::Progress::quiet()
    } else {
        flow::tools::Progress::new("[build] ")
    };
    let opts = flow::build::BuildOptions {
        board,
        out_dir: out.clone(),
        pnr_seed: job.pnr_seed,
        freq_mhz: job.freq,
        logic: logic.as_ref(),
        progress: progress.clone(),
    };
    let report = flow::build::build(&core, &opts)?;
    outln!("bloom build: {}", board.title);
    out!("{}", report.table());
    if job.flash {
        let bit = PathBuf::from(&report.bitstream);
        flow::steps::program(board, &bit, &out.join("program.log"), &progress)?;
        outln!(
            "programmed the {} (volatile: lost at power-off)",
            board.title
        );
    }
    Ok(report)
}
