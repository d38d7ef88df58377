//! `bloom fmax`: the core's own routed maximum frequency on a part, apart
//! from any board's I/O, compared with a bare block-RAM loop placed and
//! routed on the same part, with the same seeds, in the same run; with
//! `axi`, also the AXI wrapper `bloom_axis` around the same core (its cost:
//! Fmax beside the bare core's and beside the core's with its handshakes
//! closed by the simplest client, LUTs and flip-flops of its own).

use crate::board::{Device, Family};
use crate::harness::{
    self, Handshakes, AXI_HARNESS_TOP, BRAM_LOOP_TOP, HARNESS_TOP, LANES_HARNESS_TOP,
};
use crate::nextpnr::{self, PathSummary};
use crate::steps::{self, CellCounts, PlaceRoute, PnrJob};
use crate::tools::Progress;
use crate::{FlowError, GeneratedCore};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub struct FmaxOptions {
    pub device: &'static Device,
    pub seeds: u32,
    /// Timing target handed to nextpnr (both designs); None: the device's default.
    pub target_mhz: Option<f64>,
    pub out_dir: PathBuf,
    pub progress: Progress,
    /// Also place and route `bloom_axis` (the AXI wrapper) around the same core,
    /// and the core with its handshakes closed (`Handshakes::Closed`).
    pub axi: bool,
    /// Lanes (hdl/src/lanes/mod.rs): 1 measures the core; L > 1 measures `bloom_lanes`
    /// with L replicas of it in the core's place, and reports lookups per second.
    pub lanes: usize,
    /// How the query lanes read their replicas (`Device::replica_ports` unless asked
    /// otherwise; two ports only where the block RAM has them).
    pub replica_ports: hdl::lanes::ReplicaPorts,
}

/// nextpnr optimises towards its target: one above what either design reaches.
pub fn default_target_mhz(d: &Device) -> f64 {
    match (d.family, d.name) {
        (Family::Ice40, "up5k") => 100.0,
        (Family::Ice40, _) => 200.0,
        (Family::Ecp5, _) => 150.0,
    }
}

/// The core's speed goal: its routed Fmax median at least this many times the
/// bare block-RAM loop's, on the same part, over the same seeds.
pub const GOAL_RATIO: f64 = 0.9;

/// The fewest seeds for which a ratio of medians gets an interval: with fewer,
/// resampling a handful of values says little about the median of many.
pub const MIN_SEEDS_FOR_INTERVAL: usize = 10;

/// Resamples drawn for a bootstrap interval.
const RESAMPLES: usize = 10_000;

/// A ratio of two designs' routed Fmax medians over the same seeds, with how
/// far the seeds let it be trusted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioEstimate {
    /// median(numerator) / median(denominator).
    pub ratio: f64,
    /// The 95% percentile-bootstrap interval of the ratio: each design's
    /// per-seed values resampled with replacement, apart (their placements
    /// are independent), the ratio of the resamples' medians taken
    /// `RESAMPLES` times, and its 2.5% and 97.5% points. None below
    /// `MIN_SEEDS_FOR_INTERVAL` seeds.
    pub interval: Option<(f64, f64)>,
}

/// A ratio against a goal: met or missed only when its whole interval says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The interval's low end is at or above the goal.
    Met,
    /// The interval's high end is below the goal.
    Missed,
    /// The interval holds the goal, or there are too few seeds for one.
    Unresolved,
}

/// The median of `values`, which it leaves sorted.
fn median_of(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

impl RatioEstimate {
    /// The ratio of `numerator`'s median to `denominator`'s (0 when the latter
    /// is not positive), and its interval when both have at least
    /// `MIN_SEEDS_FOR_INTERVAL` values. Deterministic: the resampling draws
    /// from a fixed SplitMix64 sequence (hdl::hash::splitmix).
    pub fn of(numerator: &[f64], denominator: &[f64]) -> RatioEstimate {
        let ratio_of = |n: &mut [f64], d: &mut [f64]| {
            let dm = median_of(d);
            if dm > 0.0 {
                median_of(n) / dm
            } else {
                0.0
            }
        };
        let ratio = ratio_of(&mut numerator.to_vec(), &mut denominator.to_vec());
        if numerator.len().min(denominator.len()) < MIN_SEEDS_FOR_INTERVAL {
            return RatioEstimate {
                ratio,
                interval: None,
            };
        }
        let mut drawn: u64 = 0;
        let mut draw = |len: usize| {
            let z = hdl::hash::splitmix::splitmix64_output(0x6a09_e667_f3bc_c908, drawn);
            drawn += 1;
            (z % len as u64) as usize
        };
        let mut ratios: Vec<f64> = (0..RESAMPLES)
            .map(|_| {
                let mut n: Vec<f64> = (0..numerator.len())
                    .map(|_| numerator[draw(numerator.len())])
                    .collect();
                let mut d: Vec<f64> = (0..denominator.len())
                    .map(|_| denominator[draw(denominator.len())])
                    .collect();
                ratio_of(&mut n, &mut d)
            })
            .collect();
        ratios.sort_by(|a, b| a.total_cmp(b));
        let at =
            |q: f64| ratios[((q * (RESAMPLES - 1) as f64).round() as usize).min(RESAMPLES - 1)];
        RatioEstimate {
            ratio,
            interval: Some((at(0.025), at(0.975))),
        }
    }

    /// Against `goal`: see [`Verdict`].
    pub fn verdict(&self, goal: f64) -> Verdict {
        match self.interval {
            Some((low, _)) if low >= goal => Verdict::Met,
            Some((_, high)) if high < goal => Verdict::Missed,
            _ => Verdict::Unresolved,
        }
    }
}

/// "0.893, 95% interval 0.871..0.912" or "0.893 (no interval: 3 seed(s), ...)".
fn describe_ratio(ratio: f64, interval: Option<(f64, f64)>, seeds: usize) -> String {
    match interval {
        Some((low, high)) => format!("{ratio:.3}, 95% interval {low:.3}..{high:.3}"),
        None => format!(
            "{ratio:.3} (no interval: {seeds} seed(s), {MIN_SEEDS_FOR_INTERVAL} or more give one)"
        ),
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
    /// One routed Fmax per seed, seeds 1..=N in order.
    pub per_seed: Vec<f64>,
}

impl Spread {
    pub fn of(values: &[f64]) -> Spread {
        let mut v = values.to_vec();
        let median = median_of(&mut v);
        Spread {
            min: v[0],
            median,
            max: v[v.len() - 1],
            per_seed: values.to_vec(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct FmaxReport {
    pub device: String,
    pub part: String,
    pub package: String,
    pub core_config: hdl::CoreDescription,
    pub seeds: u32,
    pub target_mhz: f64,
    pub core: Spread,
    pub bram_loop: Spread,
    pub ratio: f64,
    /// `ratio`'s interval over the seeds (`RatioEstimate`).
    pub ratio_interval: Option<(f64, f64)>,
    /// `ratio` and its interval against `GOAL_RATIO`.
    pub verdict: Verdict,
    /// The core alone (or `bloom_lanes`), synthesised as the flow builds it:
    /// flattened, no harness.
    pub luts: u64,
    pub ffs: u64,
    /// The same synthesised with its hierarchy kept (whose modules give
    /// `luts_per_module`): more, since no logic is folded across a boundary.
    pub luts_hierarchy_kept: u64,
    /// Block RAMs of the placed core (the harness has none).
    pub brams: u32,
    pub brams_minimum: u32,
    /// iCE40: logic cells of the placed harness+core; None on ECP5.
    pub logic_cells: Option<u32>,
    /// LUT4s per hash-unit module (modules whose name contains "hash"), one instance
    /// each, hierarchy kept.
    pub luts_per_hash_unit: BTreeMap<String, u64>,
    /// LUT4s per module of the core (one instance each), hierarchy kept.
    pub luts_per_module: BTreeMap<String, u64>,
    /// nextpnr's routed critical path of the core's slowest seed.
    pub critical_path: Option<String>,
    /// Each seed's routed critical path in brief, seeds 1..=N in order.
    pub paths_per_seed: Vec<Option<PathSummary>>,
    pub tools: BTreeMap<String, String>,
    pub out_dir: String,
    /// The AXI wrapper's cost, when asked for.
    pub axi: Option<AxiCost>,
    /// Lanes measured (1: the core; L > 1: `bloom_lanes`, whose figures are in
    /// the core's place above: Fmax, LUTs, flip-flops, block RAM).
    pub lanes: usize,
    /// How its query lanes read their replicas (`FmaxOptions::replica_ports`).
    pub replica_ports: hdl::lanes::ReplicaPorts,
    /// Lookups per second: the routed Fmax median times the lanes.
    pub lookups_per_second: f64,
}

/// `bloom_axis` (wrapper and core) in its own harness, same part, same seeds.
#[derive(Clone, Debug, Serialize)]
pub struct AxiCost {
    pub fmax: Spread,
    /// Its median over the bare core's median.
    pub ratio_to_core: f64,
    /// `ratio_to_core`'s interval over the seeds (`RatioEstimate`).
    pub ratio_to_core_interval: Option<(f64, f64)>,
    /// Its median over the bare block-RAM loop's median: the wrapper against
    /// the bound the core's own speed goal is set by (`GOAL_RATIO`).
    pub ratio_to_loop: f64,
    /// `ratio_to_loop`'s interval over the seeds (`RatioEstimate`).
    pub ratio_to_loop_interval: Option<(f64, f64)>,
    /// The core in a harness whose handshakes are closed as the simplest client
    /// closes them (`Handshakes::Closed`), same part, same seeds: what a design
    /// driving the core's own ports that simply reaches without a wrapper.
    pub client: Spread,
    /// The wrapper's median over `client`'s median.
    pub ratio_to_client: f64,
    /// `ratio_to_client`'s interval over the seeds (`RatioEstimate`).
    pub ratio_to_client_interval: Option<(f64, f64)>,
    /// Each seed's routed critical path of `client` in brief.
    pub client_paths_per_seed: Vec<Option<PathSummary>>,
    /// LUT4s and flip-flops of `bloom_axis`, the core included, synthesised
    /// alone and flattened, as the core's.
    pub luts: u64,
    pub ffs: u64,
    /// The wrapper's own: `bloom_axis` minus the core.
    pub wrapper_luts: i64,
    pub wrapper_ffs: i64,
    /// Block RAMs of the placed wrapper (the core's).
    pub brams: u32,
    /// nextpnr's routed critical path of the wrapper's slowest seed.
    pub critical_path: Option<String>,
    /// Each seed's routed critical path in brief, seeds 1..=N in order.
    pub paths_per_seed: Vec<Option<PathSummary>>,
}

impl FmaxReport {
    /// The one-object summary `--json` prints.
    pub fn summary_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "device": self.device,
            "fmax_mhz_median": self.core.median,
            "bram_loop_fmax_mhz_median": self.bram_loop.median,
            "ratio": self.ratio,
            "ratio_interval": self.ratio_interval,
            "goal_ratio": GOAL_RATIO,
            "verdict": self.verdict,
            "luts": self.luts,
            "ffs": self.ffs,
            "brams": self.brams,
            "lanes": self.lanes,
            "lookups_per_second": self.lookups_per_second,
        });
        if let Some(a) = &self.axi {
            v["axi_fmax_mhz_median"] = a.fmax.median.into();
            v["axi_ratio_to_core"] = a.ratio_to_core.into();
            v["axi_ratio_to_core_interval"] = serde_json::json!(a.ratio_to_core_interval);
            v["axi_ratio_to_loop"] = a.ratio_to_loop.into();
            v["axi_ratio_to_loop_interval"] = serde_json::json!(a.ratio_to_loop_interval);
            v["client_fmax_mhz_median"] = a.client.median.into();
            v["axi_ratio_to_client"] = a.ratio_to_client.into();
            v["axi_ratio_to_client_interval"] = serde_json::json!(a.ratio_to_client_interval);
            v["axi_luts"] = a.luts.into();
            v["axi_ffs"] = a.ffs.into();
            v["axi_wrapper_luts"] = a.wrapper_luts.into();
            v["axi_wrapper_ffs"] = a.wrapper_ffs.into();
        }
        v
    }

    pub fn table(&self) -> String {
        let s = |x: &Spread| format!("{:>7.2} {:>7.2} {:>7.2}", x.min, x.median, x.max);
        let mut t = String::new();
        t += &format!(
            "bloom fmax: {} ({} {}), {} seed(s), nextpnr target {} MHz\n",
            self.device, self.part, self.package, self.seeds, self.target_mhz
        );
        t += &format!(
            "  core: {} (latency {} cycles)\n",
            self.core_config.params, self.core_config.timing.latency
        );
        let what = if self.lanes > 1 {
            match self.replica_ports {
                hdl::lanes::ReplicaPorts::One => format!("bloom_lanes L={}", self.lanes),
                hdl::lanes::ReplicaPorts::Two => format!("bloom_lanes L={} (2-port)", self.lanes),
            }
        } else {
            "core".to_string()
        };
        t += &format!(
            "  {:<16} {:>7} {:>7} {:>7}  (routed MHz)\n",
            "", "min", "median", "max"
        );
        t += &format!("  {:<16} {}\n", what, s(&self.core));
        t += &format!("  {:<16} {}\n", "bare BRAM loop", s(&self.bram_loop));
        if let Some(a) = &self.axi {
            t += &format!(
                "  {:<16} {}   (handshakes closed by the simplest client)\n",
                "core in client",
                s(&a.client)
            );
            t += &format!("  {:<16} {}\n", "AXI wrapper", s(&a.fmax));
        }
        let seeds = self.seeds as usize;
        t += &format!(
            "  {:<16} {}   (core median / BRAM loop median)\n",
            "ratio",
            describe_ratio(self.ratio, self.ratio_interval, seeds)
        );
        let verdict = match self.verdict {
            Verdict::Met => "met: the whole interval is at or above it".to_string(),
            Verdict::Missed => "missed: the whole interval is below it".to_string(),
            Verdict::Unresolved if self.ratio_interval.is_some() => {
                "not resolved: the interval holds it (more seeds narrow the interval)".to_string()
            }
            Verdict::Unresolved => {
                format!("not resolved: too few seeds (--seeds {MIN_SEEDS_FOR_INTERVAL} or more)")
            }
        };
        t += &format!("  {:<16} {verdict}\n", format!("goal >= {GOAL_RATIO}"));
        t += &format!(
            "  {:<16} {:.3} G   (routed Fmax median x {} lane(s))\n",
            "lookups/s",
            self.lookups_per_second / 1e9,
            self.lanes
        );
        t += &format!(
            "  {:<16} {}   (synthesised alone and flattened; {} with its hierarchy kept)\n",
            if self.lanes > 1 {
                "LUT4 (lanes)"
            } else {
                "LUT4 (core)"
            },
            self.luts,
            self.luts_hierarchy_kept
        );
        t += &format!("  {:<16} {}\n", "flip-flops", self.ffs);
        t += &format!(
            "  {:<16} {}   (minimum for this filter: {})\n",
            "block RAM", self.brams, self.brams_minimum
        );
        if let Some(a) = &self.axi {
            t += &format!(
                "  {:<16} {}   (AXI wrapper median / core median)\n  {:<16} {}   (AXI wrapper median / core-in-client median)\n  {:<16} {}   (AXI wrapper median / BRAM loop median)\n  {:<16} {} LUT4, {} flip-flops with the core; the wrapper's own {} LUT4, {} flip-flops\n",
                "AXI ratio",
                describe_ratio(a.ratio_to_core, a.ratio_to_core_interval, seeds),
                "AXI to client",
                describe_ratio(a.ratio_to_client, a.ratio_to_client_interval, seeds),
                "AXI to loop",
                describe_ratio(a.ratio_to_loop, a.ratio_to_loop_interval, seeds),
                "AXI wrapper",
                a.luts,
                a.ffs,
                a.wrapper_luts,
                a.wrapper_ffs
            );
        }
        if let Some(lc) = self.logic_cells {
            t += &format!(
                "  {:<16} {}   (placed, harness included)\n",
                "logic cells", lc
            );
        }
        for (m, l) in &self.luts_per_hash_unit {
            t += &format!(
                "  {:<16} {} LUT4 ({m}, hierarchy kept)\n",
                "per hash unit", l
            );
        }
        for (tool, v) in &self.tools {
            t += &format!("  {tool:<16} {v}\n");
        }
        if let Some(p) = &self.critical_path {
            t += "  critical path of the core's slowest seed:\n";
            for l in p.lines() {
                t += &format!("    {l}\n");
            }
        }
        t += &paths_table(
            &format!("slowest path of each seed, {what}"),
            &self.core.per_seed,
            &self.paths_per_seed,
        );
        if let Some(a) = &self.axi {
            t += &paths_table(
                "slowest path of each seed, core in client",
                &a.client.per_seed,
                &a.client_paths_per_seed,
            );
            t += &paths_table(
                "slowest path of each seed, AXI wrapper",
                &a.fmax.per_seed,
                &a.paths_per_seed,
            );
        }
        t
    }
}

/// One line per seed: its routed Fmax, where its slowest path starts and ends,
/// the cells between, and the share of the delay in routing.
fn paths_table(title: &str, fmax: &[f64], paths: &[Option<PathSummary>]) -> String {
    let mut t = format!("  {title} (from -> to, cells between, routing share):\n");
    for (i, (f, path)) in fmax.iter().zip(paths).enumerate() {
        t += &match path {
            Some(p) => format!(
                "    seed {:>3} {:>7.2} MHz  {} -> {}  ({} cells, {:.0}% routing)\n",
                i + 1,
                f,
                p.from,
                p.to,
                p.levels,
                100.0 * p.routing_ns / (p.logic_ns + p.routing_ns)
            ),
            None => format!(
                "    seed {:>3} {:>7.2} MHz  (no critical path in the log)\n",
                i + 1,
                f
            ),
        };
    }
    if paths.len() > 1 {
        t += "    the same paths by class (copies of a block, parts$N, counted as one):\n";
        for (class, n) in path_classes(paths) {
            t += &format!("    {n:>4} x {class}\n");
        }
    }
    t
}

/// The seeds' slowest paths counted by start and end, with the index of a
/// repeated block (`parts$2`, `lane$1`) made `$*`: the classes of path that
/// hold the median, most frequent first.
pub fn path_classes(paths: &[Option<PathSummary>]) -> Vec<(String, usize)> {
    let generalise = |name: &str| {
        let mut out = String::new();
        let mut chars = name.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            if c == '$' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    chars.next();
                }
                out.push('*');
            }
        }
        out
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for p in paths.iter().flatten() {
        *counts
            .entry(format!("{} -> {}", generalise(&p.from), generalise(&p.to)))
            .or_default() += 1;
    }
    let mut classes: Vec<(String, usize)> = counts.into_iter().collect();
    classes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    classes
}

/// Everything [`measure`] checks before any tool runs: seeds, the timing
/// target, the lanes (allowed for the filter, held by the part's block RAM, not
/// with the AXI wrapper); the target to use.
pub fn validate(core: &GeneratedCore, opts: &FmaxOptions) -> Result<f64, FlowError> {
    let d = opts.device;
    if opts.seeds == 0 || opts.seeds > 100 {
        return Err(FlowError::Invalid(format!(
            "--seeds {}: must be 1..=100",
            opts.seeds
        )));
    }
    let target = opts.target_mhz.unwrap_or_else(|| default_target_mhz(d));
    if !(target.is_finite() && target > 0.0 && target <= 1000.0) {
        return Err(FlowError::Invalid(format!(
            "target {target} MHz: must be in (0, 1000]"
        )));
    }
    crate::build::check_lanes_fit_device(
        d,
        core,
        opts.lanes,
        opts.replica_ports,
        crate::fit::LanesAround::FmaxHarness,
    )?;
    if opts.lanes > 1 && opts.axi {
        return Err(FlowError::Invalid(format!(
            "lanes = {} with --axi: bloom_axis (AXI4-Stream and AXI4-Lite) carries one lane; the lanes' \
             AXI4-Stream face, bloom_lanes_axis, is bloom_lanes's ports renamed, one reset register and L + 1 ANDs \
             (bloom verilog --lanes writes it), so measure bloom_lanes without --axi",
            opts.lanes
        )));
    }
    Ok(target)
}

/// Places and routes the core (or its lanes), the bare block-RAM loop and,
/// with `opts.axi`, the AXI wrapper and the core in its simplest client, over
/// `opts.seeds` seeds at one target, in `opts.out_dir`: the report of their
/// routed Fmax, ratios and resources.
pub fn measure(core: &GeneratedCore, opts: &FmaxOptions) -> Result<FmaxReport, FlowError> {
    let target = validate(core, opts)?;
    let lanes = if opts.lanes > 1 {
        Some(
            hdl::lanes::lanes_around_with(
                core.clone(),
                opts.lanes,
                opts.replica_ports,
                Default::default(),
            )
            .map_err(|e| FlowError::Invalid(e.to_string()))?,
        )
    } else {
        None
    };
    let dir = &opts.out_dir;
    std::fs::create_dir_all(dir)
        .map_err(|e| FlowError::Io(format!("creating {}: {e}", dir.display())))?;
    let family = opts.device.family;
    let tools = crate::build::tool_versions(&[steps::synth_tool(family), steps::pnr_tool(family)])?;
    let synthesised = synthesise_designs(core, lanes.as_ref(), opts)?;
    let seeds = place_and_route_seeds(opts, target, synthesised.axi.is_some())?;
    Ok(fmax_report(core, opts, target, tools, synthesised, seeds))
}

/// What synthesis says of the design measured (the core, or its lanes) and,
/// with `--axi`, of the AXI wrapper around the core.
struct Synthesised {
    /// The design alone, flattened, as the flow builds it.
    cells: CellCounts,
    /// The design with its hierarchy kept, per module (`design`: the whole).
    hierarchy: BTreeMap<String, CellCounts>,
    /// The AXI wrapper with its core, flattened.
    axi: Option<CellCounts>,
}

/// Writes the designs' Verilog and synthesises each: the harness around the
/// design (or its lanes), the design alone (flattened, and with its hierarchy
/// kept), the block-RAM loop, and with `--axi` the AXI wrapper's harness, the
/// core in its simplest client and the wrapper alone.
fn synthesise_designs(
    core: &GeneratedCore,
    lanes: Option<&hdl::lanes::GeneratedLanes>,
    opts: &FmaxOptions,
) -> Result<Synthesised, FlowError> {
    let (family, dir, p) = (opts.device.family, &opts.out_dir, &opts.progress);
    steps::write(&dir.join("core.v"), &core.verilog)?;
    steps::write(&dir.join("bram_loop.v"), &harness::bram_loop())?;
    // The resource figures are those of the design synthesised alone as the flow
    // builds it (flattened, no harness): what a user's own build of it takes. The
    // per-module figures need the hierarchy kept, which stops Yosys from folding
    // logic across module boundaries (every rust-hdl register is a module, so an
    // enable stays a LUT in front of it): their sum is more than the whole.
    let (design, design_top, harness_verilog, harness_top) = match lanes {
        None => (
            "core",
            core.top.as_str(),
            harness::fmax_harness(core, Handshakes::Open)?,
            HARNESS_TOP,
        ),
        Some(g) => {
            steps::write(&dir.join("lanes.v"), &g.verilog)?;
            (
                "lanes",
                g.top.as_str(),
                harness::lanes_fmax_harness(g),
                LANES_HARNESS_TOP,
            )
        }
    };
    steps::write(&dir.join("harness.v"), &harness_verilog)?;
    let placed = steps::synthesise(family, dir, "harness.v", harness_top, "harness", p)?;
    let what = match lanes {
        None => "the core in its harness".to_string(),
        Some(g) => format!("bloom_lanes (L = {}) in its harness", g.lanes),
    };
    crate::fit::check_netlist_fits_logic(opts.device, &placed, harness_top, &what)?;
    let design_verilog = format!("{design}.v");
    let flat = steps::synthesise(family, dir, &design_verilog, design_top, design, p)?;
    let hierarchy = steps::hierarchy_stats(family, dir, &design_verilog, design_top, p)?;
    steps::synthesise(family, dir, "bram_loop.v", BRAM_LOOP_TOP, "bram_loop", p)?;
    let axi = if opts.axi {
        Some(synthesise_axi(core, opts)?)
    } else {
        None
    };
    Ok(Synthesised {
        cells: flat.cells,
        hierarchy,
        axi,
    })
}

/// `--axi`: the wrapper's harness and the core in its simplest client
/// synthesised for placing, and the wrapper alone for its cells.
fn synthesise_axi(core: &GeneratedCore, opts: &FmaxOptions) -> Result<CellCounts, FlowError> {
    let (family, dir, p) = (opts.device.family, &opts.out_dir, &opts.progress);
    let axi =
        hdl::axi::generate_axi(&core.config).map_err(|e| FlowError::Invalid(e.to_string()))?;
    steps::write(&dir.join("axi.v"), &axi.full_verilog())?;
    steps::write(&dir.join("axi_harness.v"), &harness::axi_fmax_harness(&axi))?;
    let placed = steps::synthesise(
        family,
        dir,
        "axi_harness.v",
        AXI_HARNESS_TOP,
        "axi_harness",
        p,
    )?;
    crate::fit::check_netlist_fits_logic(
        opts.device,
        &placed,
        AXI_HARNESS_TOP,
        "bloom_axis in its harness",
    )?;
    steps::write(
        &dir.join("client_harness.v"),
        &harness::fmax_harness(core, Handshakes::Closed)?,
    )?;
    let placed = steps::synthesise(
        family,
        dir,
        "client_harness.v",
        HARNESS_TOP,
        "client_harness",
        p,
    )?;
    crate::fit::check_netlist_fits_logic(
        opts.device,
        &placed,
        HARNESS_TOP,
        "the core in its simplest client",
    )?;
    Ok(steps::synthesise(family, dir, "axi.v", &axi.top, "axi", p)?.cells)
}

/// One design placed and routed once per seed: each seed's routed Fmax and
/// slowest path, and the critical path of the slowest seed.
#[derive(Default)]
struct SeedSeries {
    fmax: Vec<f64>,
    paths: Vec<Option<PathSummary>>,
    slowest: Option<(f64, Option<String>)>,
}

impl SeedSeries {
    /// Adds one seed's run; its routed Fmax (0 where nextpnr gave none).
    fn add(&mut self, run: &PlaceRoute) -> f64 {
        let fmax = run.limiting_clock().map(|t| t.fmax_mhz).unwrap_or(0.0);
        self.fmax.push(fmax);
        self.paths.push(
            run.critical_path
                .as_deref()
                .and_then(nextpnr::summarise_path),
        );
        if self.slowest.as_ref().is_none_or(|(f, _)| fmax < *f) {
            self.slowest = Some((fmax, run.critical_path.clone()));
        }
        fmax
    }

    fn critical_path(self) -> Option<String> {
        self.slowest.and_then(|(_, p)| p)
    }
}

/// Every seed's place-and-route runs.
struct SeedRuns {
    /// The design's harness, and its first seed's run (its placed cells).
    core: SeedSeries,
    first_core: PlaceRoute,
    bram_loop: SeedSeries,
    /// With `--axi`: the wrapper's harness, its block RAM on the last seed,
    /// and the core in its simplest client.
    axi: SeedSeries,
    axi_brams: u32,
    client: SeedSeries,
}

/// Seeds 1 to `opts.seeds`: the harness and the block-RAM loop placed and
/// routed at `target` with each, and with `axi` the wrapper's harness and the
/// client's.
fn place_and_route_seeds(
    opts: &FmaxOptions,
    target: f64,
    axi: bool,
) -> Result<SeedRuns, FlowError> {
    let (d, dir, p) = (opts.device, &opts.out_dir, &opts.progress);
    let mut first_core = None;
    let mut core = SeedSeries::default();
    let mut bram_loop = SeedSeries::default();
    let mut axi_series = SeedSeries::default();
    let mut axi_brams = 0;
    let mut client = SeedSeries::default();
    for seed in 1..=opts.seeds as u64 {
        p.say(&format!("seed {seed} of {}", opts.seeds));
        let run = |input: &str, name: &str| {
            let job = PnrJob {
                device: d,
                package: d.default_package,
                constraints: None,
                freq_mhz: Some(target),
                seed,
                input,
                name,
                write_placed: None,
            };
            steps::place_and_route(dir, &job, p)
        };
        let c = run("harness.json", &format!("harness-seed{seed}"))?;
        let l = run("bram_loop.json", &format!("bram_loop-seed{seed}"))?;
        let cf = core.add(&c);
        let lf = bram_loop.add(&l);
        p.say(&format!(
            "seed {seed}: core {cf:.2} MHz, BRAM loop {lf:.2} MHz"
        ));
        if first_core.is_none() {
            first_core = Some(c);
        }
        if axi {
            let a = run("axi_harness.json", &format!("axi_harness-seed{seed}"))?;
            let c = run("client_harness.json", &format!("client_harness-seed{seed}"))?;
            let af = axi_series.add(&a);
            let client_fmax = client.add(&c);
            p.say(&format!(
                "seed {seed}: AXI wrapper {af:.2} MHz, core in client {client_fmax:.2} MHz"
            ));
            axi_brams = a.used(d.bram_bel).used;
        }
    }
    Ok(SeedRuns {
        core,
        first_core: first_core.expect("at least one seed"),
        bram_loop,
        axi: axi_series,
        axi_brams,
        client,
    })
}

/// The report of a measurement: spreads, ratios with their intervals, the
/// verdict, resources and paths.
fn fmax_report(
    core: &GeneratedCore,
    opts: &FmaxOptions,
    target: f64,
    tools: BTreeMap<String, String>,
    synthesised: Synthesised,
    seeds: SeedRuns,
) -> FmaxReport {
    let d = opts.device;
    let first = &seeds.first_core;
    let core_s = Spread::of(&seeds.core.fmax);
    let core_median = core_s.median;
    let hier_cells = synthesised
        .hierarchy
        .get("design")
        .cloned()
        .unwrap_or_default();
    let luts_per_module: BTreeMap<String, u64> = synthesised
        .hierarchy
        .iter()
        .filter(|(m, _)| m.as_str() != "design")
        .map(|(m, c)| (m.clone(), c.luts()))
        .collect();
    let luts_per_hash_unit = luts_per_module
        .iter()
        .filter(|(m, _)| m.contains("hash"))
        .map(|(m, l)| (m.clone(), *l))
        .collect();
    let ratio_estimate = RatioEstimate::of(&seeds.core.fmax, &seeds.bram_loop.fmax);
    let core_cells = synthesised.cells;
    let axi = synthesised
        .axi
        .map(|cells| axi_cost(&cells, &core_cells, &seeds));
    FmaxReport {
        device: d.name.into(),
        part: d.part.into(),
        package: d.default_package.into(),
        core_config: core.description(),
        seeds: opts.seeds,
        target_mhz: target,
        ratio: ratio_estimate.ratio,
        ratio_interval: ratio_estimate.interval,
        verdict: ratio_estimate.verdict(GOAL_RATIO),
        core: core_s,
        bram_loop: Spread::of(&seeds.bram_loop.fmax),
        luts: core_cells.luts(),
        ffs: core_cells.ffs(),
        luts_hierarchy_kept: hier_cells.luts(),
        brams: first.used(d.bram_bel).used,
        brams_minimum: d.min_brams_of_lanes_with(
            core.config.params.k,
            core.config.params.bank_bits,
            core.config.params.counter_bits,
            opts.lanes as u32,
            opts.replica_ports,
        ),
        lanes: opts.lanes,
        replica_ports: opts.replica_ports,
        lookups_per_second: core_median * 1e6 * opts.lanes as f64,
        logic_cells: (d.family == Family::Ice40).then(|| first.used(d.lut_bel).used),
        luts_per_hash_unit,
        luts_per_module,
        paths_per_seed: seeds.core.paths.clone(),
        critical_path: seeds.core.critical_path(),
        tools,
        out_dir: opts.out_dir.display().to_string(),
        axi,
    }
}

/// The AXI wrapper's cost: its Fmax beside the core's, the loop's and the
/// client's over the same seeds, and its cells beside the core's.
fn axi_cost(cells: &CellCounts, core_cells: &CellCounts, seeds: &SeedRuns) -> AxiCost {
    let axi_f = &seeds.axi.fmax;
    let to_core = RatioEstimate::of(axi_f, &seeds.core.fmax);
    let to_loop = RatioEstimate::of(axi_f, &seeds.bram_loop.fmax);
    let to_client = RatioEstimate::of(axi_f, &seeds.client.fmax);
    AxiCost {
        client: Spread::of(&seeds.client.fmax),
        ratio_to_client: to_client.ratio,
        ratio_to_client_interval: to_client.interval,
        client_paths_per_seed: seeds.client.paths.clone(),
        ratio_to_core: to_core.ratio,
        ratio_to_core_interval: to_core.interval,
        ratio_to_loop: to_loop.ratio,
        ratio_to_loop_interval: to_loop.interval,
        fmax: Spread::of(axi_f),
        luts: cells.luts(),
        ffs: cells.ffs(),
        wrapper_luts: cells.luts() as i64 - core_cells.luts() as i64,
        wrapper_ffs: cells.ffs() as i64 - core_cells.ffs() as i64,
        brams: seeds.axi_brams,
        critical_path: seeds.axi.slowest.as_ref().and_then(|(_, p)| p.clone()),
        paths_per_seed: seeds.axi.paths.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_classes_count_copies_of_a_block_as_one() {
        let path = |from: &str, to: &str| {
            Some(PathSummary {
                from: from.into(),
                to: to.into(),
                levels: 2,
                logic_ns: 1.5,
                routing_ns: 4.5,
            })
        };
        let paths = [
            path("core.parts$2.addr3.d", "core.parts$2.fv5$q"),
            path("reset_count", "core.control.recount_mode.q"),
            path("core.parts$13.addr3.d", "core.parts$13.fv5$q"),
            None,
            path("core.parts$0.addr3.d", "core.parts$0.fv5$q"),
        ];
        assert_eq!(
            path_classes(&paths),
            vec![
                ("core.parts$*.addr3.d -> core.parts$*.fv5$q".to_string(), 3),
                ("reset_count -> core.control.recount_mode.q".to_string(), 1),
            ]
        );
    }

    /// `n` values spread evenly over `centre` +- `half_width`.
    fn spread(n: usize, centre: f64, half_width: f64) -> Vec<f64> {
        (0..n)
            .map(|i| centre - half_width + 2.0 * half_width * i as f64 / (n - 1) as f64)
            .collect()
    }

    #[test]
    fn ratio_is_the_ratio_of_medians_and_few_seeds_give_no_interval() {
        let e = RatioEstimate::of(&[100.0, 90.0, 120.0], &[200.0, 100.0, 110.0]);
        assert_eq!(e.ratio, 100.0 / 110.0);
        assert_eq!(e.interval, None);
        assert_eq!(
            e.verdict(0.5),
            Verdict::Unresolved,
            "no interval: nothing is judged, however far the ratio is"
        );
        let nine = spread(9, 100.0, 5.0);
        assert_eq!(RatioEstimate::of(&nine, &nine).interval, None);
        assert_eq!(RatioEstimate::of(&[1.0], &[0.0]).ratio, 0.0);
    }

    #[test]
    fn identical_seeds_give_a_point_interval() {
        let e = RatioEstimate::of(&[150.0; 12], &[200.0; 12]);
        assert_eq!(e.interval, Some((0.75, 0.75)));
        assert_eq!(e.verdict(0.75), Verdict::Met);
        assert_eq!(e.verdict(0.76), Verdict::Missed);
    }

    #[test]
    fn interval_holds_the_ratio_and_narrows_with_more_seeds() {
        let width = |n: usize| {
            let e = RatioEstimate::of(&spread(n, 165.0, 15.0), &spread(n, 183.0, 10.0));
            let (low, high) = e.interval.unwrap();
            assert!(low <= e.ratio && e.ratio <= high, "{e:?}");
            assert!(low > 0.75 && high < 1.1, "{e:?}");
            high - low
        };
        let (w15, w30, w100) = (width(15), width(30), width(100));
        assert!(w30 < w15 && w100 < w30, "{w15} {w30} {w100}");
    }

    #[test]
    fn verdict_needs_the_whole_interval_on_one_side() {
        let loop_f = spread(30, 183.0, 8.0);
        let clear_pass = RatioEstimate::of(&spread(30, 175.0, 8.0), &loop_f);
        assert_eq!(
            clear_pass.verdict(GOAL_RATIO),
            Verdict::Met,
            "{clear_pass:?}"
        );
        let clear_miss = RatioEstimate::of(&spread(30, 150.0, 8.0), &loop_f);
        assert_eq!(
            clear_miss.verdict(GOAL_RATIO),
            Verdict::Missed,
            "{clear_miss:?}"
        );
        let close = RatioEstimate::of(&spread(30, 164.7, 15.0), &loop_f);
        assert!((close.ratio - 0.9).abs() < 0.002);
        assert_eq!(close.verdict(GOAL_RATIO), Verdict::Unresolved, "{close:?}");
    }

    #[test]
    fn resampling_is_deterministic() {
        let (a, b) = (spread(20, 160.0, 20.0), spread(20, 180.0, 9.0));
        assert_eq!(RatioEstimate::of(&a, &b), RatioEstimate::of(&a, &b));
    }
}
