//! `bloom build`: board top + core -> Yosys -> nextpnr -> packer -> report.
//!
//! Clock choice. With a frequency given (`--freq`), the build makes the fastest
//! clock the board can make at or below it (PLL or oscillator), runs once,
//! and fails if routing does not meet it. Without one, it runs first at the
//! device's conservative frequency, then at the fastest setting at or below
//! 95% of the previous run's routed Fmax (the margin absorbs placement noise
//! between runs), until a run after the first meets timing, no setting would
//! beat the fastest clock met so far, or three runs were made; the fastest run
//! that met timing is kept. Each run keeps its files and logs in its own
//! directory `passN-FREQ/`.
//!
//! The board logic must work at the clock, too: the UART bridge's baud
//! divider is worked out from it and must come within 2% of the baud rate.
//! A requested clock where it does not is an error (naming the fastest one
//! below it that works); the automatic choice skips such clocks. The logic's
//! Verilog is generated anew for each run's clock.

use crate::board::{Board, Device, Family};
use crate::bram::Mapping;
use crate::nextpnr::ClockTiming;
use crate::steps::{self, MappedMemory, PlaceRoute, PnrJob, Synthesis};
use crate::swap;
use crate::tools::{Progress, Tool};
use crate::top::{self, BoardLogic, ClockFit, ClockPlan, UartLink};
use crate::{FlowError, GeneratedCore};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct BuildOptions<'a> {
    pub board: &'static Board,
    pub out_dir: PathBuf,
    /// nextpnr's placement seed.
    pub pnr_seed: u64,
    /// Requested core clock in MHz; None: chosen from achieved timing.
    pub freq_mhz: Option<f64>,
    pub logic: &'a dyn BoardLogic,
    pub progress: Progress,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Count {
    pub used: u64,
    pub total: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Resources {
    /// LUT4s: iCE40 SB_LUT4 cells after synthesis; ECP5 TRELLIS_COMB after packing.
    pub luts: Count,
    pub ffs: Count,
    /// iCE40 logic cells (LUT4 + FF + carry) as placed; None on ECP5.
    pub logic_cells: Option<Count>,
    pub brams: Count,
    /// Block RAMs this filter needs at the least (one bank per block or more).
    /// The board logic may use more of its own (the UART bridge's frame buffer):
    /// `memories` says which memory went where.
    pub brams_minimum: u32,
    /// Every memory Yosys mapped to RAM cells, with the cell type.
    pub memories: Vec<MappedMemory>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Pass {
    pub dir: String,
    pub clock_mhz: f64,
    pub routed_fmax_mhz: f64,
    pub timing_met: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct BuildReport {
    pub board: String,
    pub board_title: String,
    pub family: String,
    pub part: String,
    pub package: String,
    /// What the board top holds, as `bloom build --top` names it ("uart-bridge", "test-pattern").
    pub top: String,
    /// Its description.
    pub logic: String,
    /// The host link at the chosen clock (None for the test pattern).
    pub uart: Option<UartLink>,
    /// Lanes of the core the top holds (1: `bloom_core`; more: `bloom_lanes`, the test pattern only).
    pub lanes: usize,
    pub core: hdl::CoreDescription,
    pub clock: ClockPlan,
    pub constrained_mhz: f64,
    pub routed_fmax_mhz: f64,
    pub timing_met: bool,
    pub clocks: Vec<ClockTiming>,
    pub pnr_seed: u64,
    pub resources: Resources,
    pub tools: BTreeMap<String, String>,
    pub bitstream: String,
    pub passes: Vec<Pass>,
    pub critical_path: Option<String>,
    /// Whether `bloom image swap` can replace the filter in this bitstream, and why not.
    pub swap: SwapRecord,
}

/// What the build recorded for filter swaps (flow/src/swap/record.rs).
#[derive(Clone, Debug, Serialize)]
pub struct SwapRecord {
    pub swappable: bool,
    /// How the mapping was checked on the netlist, or why the bitstream is not swappable.
    pub detail: String,
    /// The manifest beside the bitstream (None when not swappable).
    pub manifest: Option<String>,
    /// Bank bits read back from the packed bitstream and compared with the image.
    pub bits_checked: u64,
}

pub const REPORT_JSON: &str = "report.json";
/// Place-and-route runs `bloom build` makes at most when it chooses the clock.
pub const MAX_PASSES: usize = 3;
pub const REPORT_TXT: &str = "report.txt";

pub fn bitstream_name(family: Family) -> &'static str {
    match family {
        Family::Ice40 => "bloom.bin",
        Family::Ecp5 => "bloom.bit",
    }
}

/// The tools a family's flow needs, in order: synthesis, place and route, packer,
/// and (iCE40) the unpacker that reads the packed bitstream's banks back.
pub fn toolchain(family: Family) -> Vec<Tool> {
    let mut tools = vec![
        steps::synth_tool(family),
        steps::pnr_tool(family),
        steps::pack_tool(family),
    ];
    if family == Family::Ice40 {
        tools.push(Tool::Iceunpack);
    }
    tools
}

/// Each tool's version line (a missing tool is an error naming how to install it).
pub fn tool_versions(tools: &[Tool]) -> Result<BTreeMap<String, String>, FlowError> {
    tools
        .iter()
        .map(|t| Ok((t.program().to_string(), t.version()?)))
        .collect()
}

/// Fails early, with the arithmetic, when the filter cannot fit the part's block RAM.
/// Query lanes that share each replica, one on each port (`ReplicaPorts::Two`), need a
/// block RAM with a second read port: ECP5's DP16KD has one; iCE40's SB_RAM40_4K reads
/// on one port and is written on the other (lane 0's write broadcast).
pub fn check_replica_ports(d: &Device, ports: hdl::lanes::ReplicaPorts) -> Result<(), FlowError> {
    if ports.lanes_per_replica() > d.replica_ports().lanes_per_replica() {
        return Err(FlowError::Invalid(format!(
            "--replica-ports {}: the {}'s block RAM has one read port (its other port takes lane 0's \
             writes), so each query lane needs replicas of its own: use --replica-ports 1 \
             (two query lanes per replica need a true dual-port block RAM, ECP5's DP16KD)",
            ports.lanes_per_replica(),
            d.part
        )));
    }
    Ok(())
}

pub fn check_fits_device(d: &Device, core: &GeneratedCore) -> Result<(), FlowError> {
    let need = d.min_brams(
        core.config.params.k,
        core.config.params.bank_bits,
        core.config.params.counter_bits,
    );
    if need > d.usable_brams() {
        return Err(FlowError::DoesNotFit {
            part: d.part.to_string(),
            detail: format!(
                "k = {} banks of 2^{} bits need at least {need} block RAMs ({} per bank, {} bits each), \
                 the {} has {}; use fewer or smaller banks (--k, --bank-bits) or a larger part",
                core.config.params.k,
                core.config.params.bank_bits,
                need / core.config.params.k,
                d.bram_bits,
                d.part,
                d.usable_brams()
            ),
        });
    }
    Ok(())
}

/// `lanes` replicas of `core`'s banks (hdl/src/lanes/mod.rs) are allowed
/// (`hdl::lanes::check_lanes`, for more than one) and fit the part's block RAM
/// and, as far as the configuration tells (`fit::check_lanes_fit_logic`, iCE40),
/// its logic, placed with `around`: otherwise an error naming what they need,
/// what the part has and the most lanes it holds, before anything is
/// synthesised. One lane is the core alone.
pub fn check_lanes_fit_device(
    d: &Device,
    core: &GeneratedCore,
    lanes: usize,
    ports: hdl::lanes::ReplicaPorts,
    around: crate::fit::LanesAround,
) -> Result<(), FlowError> {
    if lanes != 1 {
        hdl::lanes::check_lanes(&core.config.params, lanes)
            .map_err(|e| FlowError::Invalid(e.to_string()))?;
    }
    check_replica_ports(d, ports)?;
    check_fits_device(d, core)?;
    let p = &core.config.params;
    // Lane 0 holds the filter's banks (a counting filter's counters); the query lanes a
    // replica of each bank's bits (of a counting filter, its counters' non-zero bits)
    // for every one or every two of them (Device::replica_ports).
    let lane0 = d.min_brams(p.k, p.bank_bits, p.counter_bits) as u64;
    let per_replica = d.min_brams(p.k, p.bank_bits, 1) as u64;
    let sharing = ports.lanes_per_replica() as u64;
    let need =
        d.min_brams_of_lanes_with(p.k, p.bank_bits, p.counter_bits, lanes as u32, ports) as u64;
    let have = d.usable_brams() as u64;
    if need > have {
        let most = 1 + sharing * (have.saturating_sub(lane0) / per_replica);
        let replica = if sharing == 1 {
            format!("{per_replica} per query lane")
        } else {
            format!("{per_replica} per {sharing} query lanes (two-port replicas)")
        };
        let split = if lane0 == per_replica {
            format!("{lane0} for lane 0, {replica}")
        } else {
            format!("{lane0} for lane 0's counters, {replica}")
        };
        return Err(FlowError::DoesNotFit {
            part: d.part.to_string(),
            detail: format!(
                "lanes = {lanes} replicas of k = {} banks of 2^{} bits need {need} block RAMs ({split}), \
                 the {} has {have}: at most {most} lanes for this filter",
                p.k,
                p.bank_bits,
                d.part,
            ),
        });
    }
    crate::fit::check_lanes_fit_logic(d, p, lanes, around)
}

/// The fastest clock at or below `max_mhz` that the board can make and the
/// logic can run at, with the host link the logic then offers.
pub fn usable_clock(
    board: &Board,
    max_mhz: f64,
    logic: &dyn BoardLogic,
    core: &GeneratedCore,
) -> Result<(ClockPlan, Option<UartLink>), FlowError> {
    let mut limit = max_mhz;
    let mut first_reason: Option<String> = None;
    // Each round skips at least one of the logic's unusable bands, so a few
    // rounds suffice; the bound only guards against a logic whose hints do not.
    for _ in 0..64 {
        let plan = match ClockPlan::fastest_up_to(board, limit) {
            Ok(p) => p,
            Err(e) if first_reason.is_none() => return Err(e),
            Err(_) => break,
        };
        match logic.fit(core, top::clock_hz(&plan))? {
            ClockFit::Fits(link) => return Ok((plan, link)),
            ClockFit::Unusable {
                reason,
                retry_at_or_below_mhz,
            } => {
                first_reason.get_or_insert(reason);
                limit = retry_at_or_below_mhz.min(plan.mhz() - 1e-6);
                if limit <= 0.0 {
                    break;
                }
            }
        }
    }
    Err(FlowError::Invalid(format!(
        "{}; nor can it at any slower clock the {} can make. Choose another --baud or a faster --freq",
        first_reason.unwrap_or_else(|| format!("the {} cannot run at {max_mhz} MHz or below", logic.name())),
        board.title,
    )))
}

/// The clock for `--freq`: the fastest the board makes at or below it, which
/// the logic must be able to run at (no silent slower choice).
fn requested_clock(
    board: &Board,
    freq_mhz: f64,
    logic: &dyn BoardLogic,
    core: &GeneratedCore,
) -> Result<ClockPlan, FlowError> {
    check_requested_clock(board, freq_mhz)?;
    let plan = ClockPlan::fastest_up_to(board, freq_mhz)?;
    match logic.fit(core, top::clock_hz(&plan))? {
        ClockFit::Fits(_) => Ok(plan),
        ClockFit::Unusable { reason, .. } => {
            let hint = match usable_clock(board, freq_mhz, logic, core) {
                Ok((p, _)) => format!(
                    "the fastest clock at or below {freq_mhz} MHz that works is {} MHz: use --freq {}, or another --baud",
                    p.mhz(),
                    p.mhz()
                ),
                Err(_) => format!("no clock at or below {freq_mhz} MHz works: choose another --baud or a faster --freq"),
            };
            Err(FlowError::Invalid(format!(
                "{reason}; {hint}. No bitstream was written"
            )))
        }
    }
}

/// A requested clock (`--freq`) must be one the board can make: its oscillator's, or
/// within its PLL's output range (flow/src/pll.rs). A clock above the PLL's highest
/// output is refused, not silently lowered to it; one below the oscillator and the
/// PLL's lowest output is refused by [`ClockPlan::fastest_up_to`].
pub fn check_requested_clock(board: &Board, freq_mhz: f64) -> Result<(), FlowError> {
    if !freq_mhz.is_finite() || freq_mhz <= 0.0 {
        return Err(FlowError::Invalid(format!(
            "--freq {freq_mhz}: the clock must be a positive number of MHz"
        )));
    }
    let (low, high) = match board.device.family {
        Family::Ice40 => (
            crate::pll::ICE40_PLL_MIN_OUT_MHZ,
            crate::pll::ICE40_PLL_MAX_OUT_MHZ,
        ),
        Family::Ecp5 => (
            crate::pll::ECP5_PLL_MIN_OUT_MHZ,
            crate::pll::ECP5_PLL_MAX_OUT_MHZ,
        ),
    };
    let top = high.max(board.clock_mhz);
    if freq_mhz > top + 1e-9 {
        return Err(FlowError::Invalid(format!(
            "--freq {freq_mhz} MHz: {} cannot make it: its {} PLL makes {low}..={high} MHz from its {} MHz \
             oscillator. No tool was run",
            board.title, board.device.family, board.clock_mhz
        )));
    }
    Ok(())
}

/// One place-and-route pass, made.
struct PassOutcome {
    dir: PathBuf,
    plan: ClockPlan,
    link: Option<UartLink>,
    synth: Synthesis,
    pnr: PlaceRoute,
}

impl PassOutcome {
    fn fmax(&self) -> f64 {
        self.pnr.limiting_clock().map(|c| c.fmax_mhz).unwrap_or(0.0)
    }
    fn met(&self) -> bool {
        !self.pnr.clocks.is_empty() && self.pnr.clocks.iter().all(|c| c.met())
    }
}

/// A pass's design, generated: its directory, its clock, the host link the
/// logic offers at that clock, and the constraint file's name.
struct PassDesign {
    dir: PathBuf,
    plan: ClockPlan,
    link: Option<UartLink>,
    constraints: &'static str,
}

/// Pass `n` at clock `plan`: generate, synthesise, place and route.
fn run_pass(
    n: usize,
    plan: ClockPlan,
    core: &GeneratedCore,
    opts: &BuildOptions,
) -> Result<PassOutcome, FlowError> {
    let design = generate(n, plan, core, opts)?;
    let synth = steps::synthesise(
        opts.board.device.family,
        &design.dir,
        "board.v",
        "bloom_board_top",
        "board",
        &opts.progress,
    )?;
    crate::fit::check_netlist_fits_logic(
        opts.board.device,
        &synth,
        "bloom_board_top",
        &format!("the board top ({})", opts.logic.name()),
    )?;
    let pnr = place_and_route(&design, opts)?;
    let outcome = PassOutcome {
        dir: design.dir,
        plan: design.plan,
        link: design.link,
        synth,
        pnr,
    };
    opts.progress.say(&format!(
        "pass {n}: routed Fmax {:.2} MHz at a {:.2} MHz constraint: {}",
        outcome.fmax(),
        outcome.plan.mhz(),
        if outcome.met() { "met" } else { "NOT met" }
    ));
    Ok(outcome)
}

/// The pass's directory `passN-FREQ/`, with the board's Verilog generated for
/// the pass's clock (the logic's dividers are worked out from it) and the
/// board's constraints.
fn generate(
    n: usize,
    plan: ClockPlan,
    core: &GeneratedCore,
    opts: &BuildOptions,
) -> Result<PassDesign, FlowError> {
    let board = opts.board;
    let dir = opts.out_dir.join(format!("pass{n}-{:.2}MHz", plan.mhz()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| FlowError::Io(format!("creating {}: {e}", dir.display())))?;
    opts.progress
        .say(&format!("pass {n}: core clock {}", plan.describe()));
    let link = match opts.logic.fit(core, top::clock_hz(&plan))? {
        ClockFit::Fits(link) => link,
        ClockFit::Unusable { reason, .. } => return Err(FlowError::Invalid(reason)),
    };
    if let Some(l) = &link {
        opts.progress.say(&format!(
            "pass {n}: UART {} baud from {} clocks per bit ({:.2}% off)",
            l.baud, l.clocks_per_bit, l.error_pct
        ));
    }
    let design = top::board_design(board, &plan, opts.logic, core)?;
    steps::write(&dir.join("board.v"), &design)?;
    let constraints = match board.device.family {
        Family::Ice40 => "board.pcf",
        Family::Ecp5 => "board.lpf",
    };
    steps::write(
        &dir.join(constraints),
        crate::constraints::checked_in(board),
    )?;
    Ok(PassDesign {
        dir,
        plan,
        link,
        constraints,
    })
}

/// nextpnr on the pass's synthesised board, with the board's pins, keeping the
/// placed netlist (the filter's cells are found in it).
fn place_and_route(design: &PassDesign, opts: &BuildOptions) -> Result<PlaceRoute, FlowError> {
    let job = PnrJob {
        device: opts.board.device,
        package: opts.board.package,
        constraints: Some(design.constraints),
        freq_mhz: None,
        seed: opts.pnr_seed,
        input: "board.json",
        name: "board",
        write_placed: Some(PLACED_JSON),
    };
    steps::place_and_route(&design.dir, &job, &opts.progress)
}

/// nextpnr's placed and routed netlist in each pass directory.
pub const PLACED_JSON: &str = "board-placed.json";

/// Removes an earlier run's outputs: only regular files of the output names (a link,
/// a FIFO or a directory there is left alone, and the final write refuses it).
fn remove_stale(out: &Path, family: Family) {
    let manifest = swap::manifest_path(&out.join(bitstream_name(family)));
    for path in [
        out.join(bitstream_name(family)),
        out.join(REPORT_JSON),
        out.join(REPORT_TXT),
        manifest,
    ] {
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file()) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The build's steps, in the order [`build`] runs them ([`PLAN`]). Each is a
/// function of its own over the [`Build`] the steps before it filled in; a
/// step that fails ends the build with its error, and none after it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// What can be checked without tools, before anything is written: an
    /// earlier run's outputs removed (regular files only), output names that
    /// may not be replaced refused, the filter held by the part, the first
    /// clock the board makes and the logic runs at, every tool present (their
    /// versions recorded); then the output directory made.
    Check,
    /// Place-and-route passes, each in a directory of its own: the board's
    /// Verilog and constraints generated for the pass's clock, synthesised,
    /// placed and routed; the clock chosen as the module's doc says.
    Passes,
    /// The kept pass must meet timing: otherwise no bitstream is written.
    Timing,
    /// The filter's place in the bitstream checked on the kept pass's netlist
    /// (or why the bitstream cannot be swappable).
    Record,
    /// The routed design signed with that place, ready to pack.
    Sign,
    /// The routed design packed into a bitstream.
    Pack,
    /// The packed bitstream checked to hold the filter where its signature
    /// says, then written with its manifest.
    Bitstream,
    /// Resources, clocks and passes written as report.json and report.txt.
    Report,
}

/// What `bloom build` does, step by step.
pub const PLAN: [Step; 8] = [
    Step::Check,
    Step::Passes,
    Step::Timing,
    Step::Record,
    Step::Sign,
    Step::Pack,
    Step::Bitstream,
    Step::Report,
];

impl Step {
    fn run(self, b: &mut Build) -> Result<(), FlowError> {
        match self {
            Step::Check => b.check(),
            Step::Passes => b.passes(),
            Step::Timing => b.timing(),
            Step::Record => b.record(),
            Step::Sign => b.sign(),
            Step::Pack => b.pack(),
            Step::Bitstream => b.write_bitstream(),
            Step::Report => b.report(),
        }
    }
}

/// Synthesises, places, routes and packs `core` in `opts.logic`'s board top
/// and writes the bitstream and its reports: the steps of [`PLAN`].
pub fn build(core: &GeneratedCore, opts: &BuildOptions) -> Result<BuildReport, FlowError> {
    let mut b = Build::new(core, opts);
    for step in PLAN {
        step.run(&mut b)?;
    }
    Ok(b.report.expect("the plan ends with the report"))
}

/// One build: its inputs, and what each step leaves for the steps after it
/// (the step that fills a field in is named beside it).
struct Build<'a> {
    core: &'a GeneratedCore,
    opts: &'a BuildOptions<'a>,
    family: Family,
    /// Lanes of the core the board top holds.
    lanes: usize,
    /// The first pass's clock (Check).
    first_clock: Option<ClockPlan>,
    /// Each tool's version line (Check).
    versions: BTreeMap<String, String>,
    /// Every pass made, and the one kept (Passes).
    passes: Vec<PassOutcome>,
    kept: usize,
    /// The contents the banks start with, and how they map to block RAM (Record).
    image: Vec<Vec<u8>>,
    mapping: Option<Mapping>,
    /// Where the filter is, or why the bitstream is not swappable (Record).
    recorded: Option<Result<swap::Recorded, String>>,
    /// The routed design to pack, in the kept pass's directory (Sign).
    to_pack: PathBuf,
    /// The packed bitstream (Pack).
    packed: Vec<u8>,
    /// What was recorded for swaps (Bitstream).
    swap: Option<SwapRecord>,
    report: Option<BuildReport>,
}

impl<'a> Build<'a> {
    fn new(core: &'a GeneratedCore, opts: &'a BuildOptions<'a>) -> Build<'a> {
        Build {
            core,
            opts,
            family: opts.board.device.family,
            lanes: opts.logic.lanes(),
            first_clock: None,
            versions: BTreeMap::new(),
            passes: Vec::new(),
            kept: 0,
            image: Vec::new(),
            mapping: None,
            recorded: None,
            to_pack: PathBuf::new(),
            packed: Vec::new(),
            swap: None,
            report: None,
        }
    }

    fn kept_pass(&self) -> &PassOutcome {
        &self.passes[self.kept]
    }

    fn bitstream_path(&self) -> PathBuf {
        self.opts.out_dir.join(bitstream_name(self.family))
    }

    fn check(&mut self) -> Result<(), FlowError> {
        let (core, opts, board) = (self.core, self.opts, self.opts.board);
        let out = &opts.out_dir;
        // Whatever happens below, no bitstream or report of an earlier run may
        // stay behind looking like this run's result (only regular files are removed).
        remove_stale(out, self.family);
        // What is left at an output's name is something an output may not replace:
        // refused before any tool runs.
        for name in [bitstream_name(self.family), REPORT_JSON, REPORT_TXT] {
            bloom_files::check_file_target(&out.join(name))
                .map_err(|e| FlowError::Invalid(e.to_string()))?;
        }
        // Everything that can be checked without tools is, before anything is written.
        check_lanes_fit_device(
            board.device,
            core,
            self.lanes,
            board.device.replica_ports(),
            crate::fit::LanesAround::Nothing,
        )?;
        self.first_clock = Some(match opts.freq_mhz {
            Some(f) => requested_clock(board, f, opts.logic, core)?,
            None => usable_clock(board, board.device.conservative_mhz, opts.logic, core)?.0,
        });
        self.versions = tool_versions(&toolchain(self.family))?;
        std::fs::create_dir_all(out)
            .map_err(|e| FlowError::Io(format!("creating {}: {e}", out.display())))
    }

    fn passes(&mut self) -> Result<(), FlowError> {
        let first = self
            .first_clock
            .take()
            .expect("Check chose the first clock");
        self.passes.push(run_pass(1, first, self.core, self.opts)?);
        self.kept = match self.opts.freq_mhz {
            Some(_) => 0,
            None => faster_passes(&mut self.passes, self.core, self.opts)?,
        };
        Ok(())
    }

    fn timing(&mut self) -> Result<(), FlowError> {
        let pass = self.kept_pass();
        if pass.met() {
            return Ok(());
        }
        let clocks: Vec<String> = pass
            .pnr
            .clocks
            .iter()
            .map(|c| {
                format!(
                    "clock '{}': routed Fmax {:.2} MHz, constraint {:.2} MHz",
                    c.net, c.fmax_mhz, c.constraint_mhz
                )
            })
            .collect();
        Err(FlowError::TimingNotMet {
            detail: format!(
                "{}; no bitstream was written. Try a lower --freq (at most {:.1}) or leave --freq out to let \
                 the build choose. Log: {}\n{}",
                clocks.join("; "),
                pass.fmax() * 0.95,
                pass.pnr.log.display(),
                pass.pnr.critical_path.clone().unwrap_or_default()
            ),
        })
    }

    fn record(&mut self) -> Result<(), FlowError> {
        let params = &self.core.config.params;
        let pass = &self.passes[self.kept];
        // The filter's place in the bitstream, checked on this build's own netlist, goes
        // into the bitstream as a signature; a design that fails the check is packed as is.
        // A counting core's banks (2^b x c) have maps of their own; Yosys picks the
        // block-RAM mode by width and depth, and a build whose mode has no map records
        // no signature rather than a wrong one (the check says which mode it found).
        let mapping = swap::mapping_for(self.family, params.counter_bits, &pass.synth.json);
        self.image = match &self.core.config.preload {
            Some(dir) => hdl::image::read_counter_image(dir, params)
                .map_err(|e| FlowError::Invalid(e.to_string()))?,
            None => vec![vec![0u8; params.bank_size() as usize]; params.k as usize],
        };
        self.recorded = Some(if self.lanes > 1 {
            Err(format!(
                "the design holds {} copies of every bank (bloom_lanes: lane 0's and its query lanes' replicas); bloom image swap replaces one copy of a filter",
                1 + (self.lanes - 1).div_ceil(self.family.replica_ports().lanes_per_replica())
            ))
        } else {
            swap::record(
                mapping,
                params,
                &self.image,
                &pass.synth.json,
                &pass.dir.join(PLACED_JSON),
                &pass.dir.join(&pass.pnr.routed),
            )
        });
        self.mapping = Some(mapping);
        Ok(())
    }

    fn sign(&mut self) -> Result<(), FlowError> {
        let pass = self.kept_pass();
        let progress = &self.opts.progress;
        self.to_pack = match self.recorded.as_ref().expect("Record ran") {
            Ok(r) => {
                let text =
                    std::fs::read_to_string(pass.dir.join(&pass.pnr.routed)).map_err(|e| {
                        FlowError::Io(format!("reading {}: {e}", pass.pnr.routed.display()))
                    })?;
                let signed = swap::sign_routed(self.family, &text, &r.signature)?;
                let ext = pass
                    .pnr
                    .routed
                    .extension()
                    .map(|e| e.to_string_lossy().to_string())
                    .unwrap_or_default();
                let name = PathBuf::from(format!("board-signed.{ext}"));
                steps::write(&pass.dir.join(&name), &signed)?;
                progress.say(&format!("filter map recorded: {}", r.mapping_check));
                name
            }
            Err(why) => {
                progress.say(&format!("not swappable: {why}"));
                pass.pnr.routed.clone()
            }
        };
        Ok(())
    }

    fn pack(&mut self) -> Result<(), FlowError> {
        let pass = self.kept_pass();
        let packed = steps::pack(
            self.family,
            &pass.dir,
            &self.to_pack,
            bitstream_name(self.family),
            &self.opts.progress,
        )?;
        self.packed = bloom_files::read_file(&packed, "packed bitstream", 64 << 20)
            .map_err(|e| FlowError::Io(e.to_string()))?;
        Ok(())
    }

    fn write_bitstream(&mut self) -> Result<(), FlowError> {
        let bitstream = self.bitstream_path();
        let record = match self.recorded.take().expect("Record ran") {
            Ok(r) => {
                // The packed bitstream must hold the image where the signature says
                // before it is written as the build's bitstream.
                let (sig, banks) = swap::banks_of(&self.packed)?;
                let differing: u64 = swap::differing_bits(&banks, &self.image).iter().sum();
                if sig != r.signature || differing != 0 {
                    return Err(FlowError::Io(format!(
                        "the packed bitstream does not hold the filter where its signature says ({differing} bank bits \
                         differ); no bitstream was written"
                    )));
                }
                let manifest = self.manifest(&r);
                write_output(&bitstream, &self.packed)?;
                let path = swap::manifest_path(&bitstream);
                manifest.write(&path)?;
                SwapRecord {
                    swappable: true,
                    detail: r.mapping_check,
                    manifest: Some(path.display().to_string()),
                    bits_checked: swap::bank_bits_total(&self.core.config.params),
                }
            }
            Err(why) => {
                write_output(&bitstream, &self.packed)?;
                SwapRecord {
                    swappable: false,
                    detail: why,
                    manifest: None,
                    bits_checked: 0,
                }
            }
        };
        self.swap = Some(record);
        Ok(())
    }

    /// The manifest beside a swappable bitstream: what `r` recorded, at length.
    fn manifest(&self, r: &swap::Recorded) -> swap::Manifest {
        let board = self.opts.board;
        swap::Manifest {
            format: swap::MANIFEST_FORMAT.into(),
            version: 1,
            signature: r.signature.line(),
            family: self.family.to_string(),
            part: board.device.part.into(),
            board: board.name.into(),
            mapping: self.mapping.expect("Record chose the mapping"),
            core: self.core.config.params,
            banks: r
                .signature
                .banks
                .iter()
                .zip(&r.cell_names)
                .map(|(sites, names)| {
                    sites
                        .iter()
                        .zip(names)
                        .map(|(s, n)| swap::ManifestCell {
                            name: n.clone(),
                            site: s.to_string(),
                        })
                        .collect()
                })
                .collect(),
            mapping_check: r.mapping_check.clone(),
            image: self
                .core
                .config
                .preload
                .as_ref()
                .map(|p| p.display().to_string()),
            image_sha256: hex32(&r.signature.image_sha256),
            fill: swap::fills(&self.image),
            bitstream: bitstream_name(self.family).into(),
            bitstream_sha256: swap::sha256_hex(&self.packed),
            tools: self.versions.clone(),
        }
    }

    fn report(&mut self) -> Result<(), FlowError> {
        let (core, opts, board) = (self.core, self.opts, self.opts.board);
        let d = board.device;
        let pass = &self.passes[self.kept];
        let p = &core.config.params;
        let brams_minimum =
            d.min_brams_of_lanes(p.k, p.bank_bits, p.counter_bits, self.lanes as u32);
        let swap_record = self.swap.take().expect("Bitstream recorded the swap");
        let report = BuildReport {
            board: board.name.into(),
            board_title: board.title.into(),
            family: self.family.to_string(),
            part: d.part.into(),
            package: board.package_title.into(),
            top: opts.logic.kind().into(),
            logic: opts.logic.name().into(),
            uart: pass.link.clone(),
            lanes: self.lanes,
            core: core.description(),
            clock: pass.plan.clone(),
            constrained_mhz: pass.plan.mhz(),
            routed_fmax_mhz: pass.fmax(),
            timing_met: pass.met(),
            clocks: pass.pnr.clocks.clone(),
            pnr_seed: opts.pnr_seed,
            resources: resources(d, pass, brams_minimum),
            tools: std::mem::take(&mut self.versions),
            bitstream: self.bitstream_path().display().to_string(),
            passes: self
                .passes
                .iter()
                .map(|p| Pass {
                    dir: p.dir.display().to_string(),
                    clock_mhz: p.plan.mhz(),
                    routed_fmax_mhz: p.fmax(),
                    timing_met: p.met(),
                })
                .collect(),
            critical_path: pass.pnr.critical_path.clone(),
            swap: swap_record,
        };
        let out = &opts.out_dir;
        let json = serde_json::to_string_pretty(&report).expect("report serialises");
        write_output(&out.join(REPORT_JSON), (json + "\n").as_bytes())?;
        write_output(&out.join(REPORT_TXT), report.table().as_bytes())?;
        self.report = Some(report);
        Ok(())
    }
}

/// What `pass` used of the part: iCE40 LUT4s and flip-flops as synthesised
/// (and the logic cells nextpnr packed them into), ECP5's as placed; block RAM
/// as placed. The totals are nextpnr's, or the device's where it gives none.
fn resources(d: &Device, pass: &PassOutcome, brams_minimum: u32) -> Resources {
    let placed = |bel: &str, fallback: u32| {
        let u = pass.pnr.used(bel);
        Count {
            used: u.used as u64,
            total: if u.available > 0 {
                u.available as u64
            } else {
                fallback as u64
            },
        }
    };
    let synthesised = |used: u64, bel: &str, fallback: u32| Count {
        used,
        total: placed(bel, fallback).total,
    };
    let (luts, ffs, logic_cells) = match d.family {
        Family::Ice40 => (
            synthesised(pass.synth.cells.luts(), d.lut_bel, d.luts),
            synthesised(pass.synth.cells.ffs(), d.ff_bel, d.ffs),
            Some(placed(d.lut_bel, d.luts)),
        ),
        Family::Ecp5 => (placed(d.lut_bel, d.luts), placed(d.ff_bel, d.ffs), None),
    };
    Resources {
        luts,
        ffs,
        logic_cells,
        brams: placed(d.bram_bel, d.brams),
        brams_minimum,
        memories: pass.synth.memories.clone(),
    }
}

/// Without `--freq`, after the first pass: passes at the fastest setting at or
/// below 95% of the last pass's routed Fmax, as the module's doc says; the
/// index of the pass to keep.
fn faster_passes(
    passes: &mut Vec<PassOutcome>,
    core: &GeneratedCore,
    opts: &BuildOptions,
) -> Result<usize, FlowError> {
    let mut best_met: Option<usize> = passes[0].met().then_some(0);
    while passes.len() < MAX_PASSES && !(best_met == Some(passes.len() - 1) && passes.len() > 1) {
        let last = passes.last().expect("one pass ran");
        let Ok((plan, _)) = usable_clock(opts.board, last.fmax() * 0.95, opts.logic, core) else {
            break;
        };
        let floor = best_met.map_or(0.0, |i| passes[i].plan.mhz());
        // Another pass only if it could beat the best clock met so far.
        if plan.mhz() <= floor * 1.02 || (plan.mhz() - last.plan.mhz()).abs() < 1e-6 {
            break;
        }
        let n = passes.len() + 1;
        passes.push(run_pass(n, plan, core, opts)?);
        if passes[n - 1].met() {
            best_met = Some(n - 1);
        }
    }
    Ok(match best_met {
        Some(i) => {
            if i + 1 != passes.len() {
                opts.progress.say(&format!(
                    "keeping pass {} (the fastest clock that met timing)",
                    i + 1
                ));
            }
            i
        }
        None => passes.len() - 1,
    })
}

fn hex32(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One of the build's outputs, written through `bloom_files` (whole or not at all).
fn write_output(path: &Path, bytes: &[u8]) -> Result<(), FlowError> {
    bloom_files::write_file(path, bytes).map_err(|e| FlowError::Io(e.to_string()))
}

fn pct(c: &Count) -> String {
    if c.total == 0 {
        format!("{}", c.used)
    } else {
        format!(
            "{:>6} / {:<6} ({:.0}%)",
            c.used,
            c.total,
            100.0 * c.used as f64 / c.total as f64
        )
    }
}

impl BuildReport {
    /// The human-readable report.
    pub fn table(&self) -> String {
        let mut rows: Vec<(String, String)> = vec![
            (
                "board".into(),
                format!("{} ({})", self.board_title, self.board),
            ),
            (
                "part".into(),
                format!("{} {} ({})", self.part, self.package, self.family),
            ),
            ("core".into(), self.core.params.to_string()),
            (
                "board top".into(),
                if self.lanes == 1 {
                    format!("{}: {}", self.top, self.logic)
                } else {
                    format!(
                        "{}: {} ({} lanes, bloom_lanes)",
                        self.top, self.logic, self.lanes
                    )
                },
            ),
            ("core clock".into(), self.clock.describe()),
            (
                "routed Fmax".into(),
                format!(
                    "{:.2} MHz (constraint {:.2} MHz: {})",
                    self.routed_fmax_mhz,
                    self.constrained_mhz,
                    if self.timing_met { "met" } else { "NOT met" }
                ),
            ),
        ];
        if let Some(u) = &self.uart {
            rows.push((
                "UART".into(),
                format!(
                    "{} baud asked, {:.1} made ({} clocks per bit, {:.2}% off); host: bloom host --port PORT --baud {}",
                    u.baud, u.actual_baud, u.clocks_per_bit, u.error_pct, u.baud
                ),
            ));
        }
        rows.extend([
            ("LUT4".into(), pct(&self.resources.luts)),
            ("flip-flops".into(), pct(&self.resources.ffs)),
        ]);
        if let Some(lc) = &self.resources.logic_cells {
            rows.push(("logic cells".into(), pct(lc)));
        }
        rows.push((
            "block RAM".into(),
            if self.lanes == 1 {
                format!(
                    "{}   minimum for this filter: {}",
                    pct(&self.resources.brams),
                    self.resources.brams_minimum
                )
            } else {
                format!(
                    "{}   minimum for {} lanes of this filter: {}",
                    pct(&self.resources.brams),
                    self.lanes,
                    self.resources.brams_minimum
                )
            },
        ));
        if !self.resources.memories.is_empty() {
            let list: Vec<String> = self
                .resources
                .memories
                .iter()
                .map(|m| {
                    // The last three names (`frames.buffer.mem`, `parts$0.ram.mem`) say what it is,
                    // and a lane's instance (`lane3.parts$0.ram.mem`) which replica.
                    let parts: Vec<&str> = m.memory.rsplitn(5, '.').collect();
                    let take = if parts.get(3).is_some_and(|p| p.starts_with("lane")) {
                        4
                    } else {
                        3
                    };
                    let short: Vec<&str> = parts.iter().take(take).rev().copied().collect();
                    format!(
                        "{} ({})",
                        short.join("."),
                        m.cell.trim_matches(|c| c == '$' || c == '_')
                    )
                })
                .collect();
            rows.push(("memories".into(), list.join(", ")));
        }
        rows.push(("nextpnr seed".into(), self.pnr_seed.to_string()));
        for (i, p) in self.passes.iter().enumerate() {
            rows.push((
                format!("pass {}", i + 1),
                format!(
                    "{:.2} MHz clock, routed {:.2} MHz, {} ({})",
                    p.clock_mhz,
                    p.routed_fmax_mhz,
                    if p.timing_met { "met" } else { "missed" },
                    p.dir
                ),
            ));
        }
        for (tool, v) in &self.tools {
            rows.push((tool.clone(), v.clone()));
        }
        rows.push(("bitstream".into(), self.bitstream.clone()));
        rows.push((
            "filter swap".into(),
            match (&self.swap.swappable, &self.swap.manifest) {
                (true, Some(m)) => format!(
                    "yes: bloom image swap --bitstream {} --image DIR --out FILE ({} bank bits read back from the bitstream; map: {})",
                    self.bitstream, self.swap.bits_checked, m
                ),
                _ => format!("no: {}", self.swap.detail),
            },
        ));
        if let Some(dir) = std::path::Path::new(&self.bitstream).parent() {
            rows.push(("report".into(), dir.join(REPORT_JSON).display().to_string()));
        }
        let w = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        rows.iter()
            .map(|(k, v)| format!("  {k:<w$}  {v}\n"))
            .collect()
    }
}
