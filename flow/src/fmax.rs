//! `bloom fmax`: the core's own routed maximum frequency on a part, apart
//! from any board's I/O, compared with a bare block-RAM loop placed and
//! routed on the same part, with the same seeds, in the same run; with
//! `axi`, also the AXI wrapper `bloom_axis` around the same core (its cost:
//! Fmax beside the bare core's, LUTs and flip-flops of its own).

use crate::board::{Device, Family};
use crate::harness::{self, AXI_HARNESS_TOP, BRAM_LOOP_TOP, HARNESS_TOP, LANES_HARNESS_TOP};
use crate::steps::{self, PnrJob};
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
    /// Also place and route `bloom_axis` (the AXI wrapper) around the same core.
    pub axi: bool,
    /// Lanes (hdl/src/lanes.rs): 1 measures the core; L > 1 measures `bloom_lanes`
    /// with L replicas of it in the core's place, and reports lookups per second.
    pub lanes: usize,
}

/// nextpnr optimises towards its target: one above what either design reaches.
pub fn default_target_mhz(d: &Device) -> f64 {
    match (d.family, d.name) {
        (Family::Ice40, "up5k") => 100.0,
        (Family::Ice40, _) => 200.0,
        (Family::Ecp5, _) => 150.0,
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
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        let median = if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 };
        Spread { min: v[0], median, max: v[n - 1], per_seed: values.to_vec() }
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
    /// The core alone (synthesised with its hierarchy kept).
    pub luts: u64,
    pub ffs: u64,
    /// Block RAMs of the placed core (the harness has none).
    pub brams: u32,
    pub brams_minimum: u32,
    /// iCE40: logic cells of the placed harness+core; None on ECP5.
    pub logic_cells: Option<u32>,
    /// LUT4s per hash-unit module (modules whose name contains "hash"), one instance each.
    pub luts_per_hash_unit: BTreeMap<String, u64>,
    /// LUT4s per module of the core (one instance each).
    pub luts_per_module: BTreeMap<String, u64>,
    /// nextpnr's routed critical path of the core's slowest seed.
    pub critical_path: Option<String>,
    pub tools: BTreeMap<String, String>,
    pub out_dir: String,
    /// The AXI wrapper's cost, when asked for.
    pub axi: Option<AxiCost>,
    /// Lanes measured (1: the core; L > 1: `bloom_lanes`, whose figures are in
    /// the core's place above: Fmax, LUTs, flip-flops, block RAM).
    pub lanes: usize,
    /// Lookups per second: the routed Fmax median times the lanes.
    pub lookups_per_second: f64,
}

/// `bloom_axis` (wrapper and core) in its own harness, same part, same seeds.
#[derive(Clone, Debug, Serialize)]
pub struct AxiCost {
    pub fmax: Spread,
    /// Its median over the bare core's median.
    pub ratio_to_core: f64,
    /// LUT4s and flip-flops of `bloom_axis`, the core included (hierarchy kept).
    pub luts: u64,
    pub ffs: u64,
    /// The wrapper's own: `bloom_axis` minus the core.
    pub wrapper_luts: i64,
    pub wrapper_ffs: i64,
    /// Block RAMs of the placed wrapper (the core's).
    pub brams: u32,
    /// nextpnr's routed critical path of the wrapper's slowest seed.
    pub critical_path: Option<String>,
}

impl FmaxReport {
    /// The one-object summary `--json` prints.
    pub fn summary_json(&self) -> serde_json::Value {
        let mut v = serde_json::json!({
            "device": self.device,
            "fmax_mhz_median": self.core.median,
            "bram_loop_fmax_mhz_median": self.bram_loop.median,
            "ratio": self.ratio,
            "luts": self.luts,
            "ffs": self.ffs,
            "brams": self.brams,
            "lanes": self.lanes,
            "lookups_per_second": self.lookups_per_second,
        });
        if let Some(a) = &self.axi {
            v["axi_fmax_mhz_median"] = a.fmax.median.into();
            v["axi_ratio_to_core"] = a.ratio_to_core.into();
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
        t += &format!("  core: {} (latency {} cycles)\n", self.core_config.params, self.core_config.timing.latency);
        let what = if self.lanes > 1 { format!("bloom_lanes L={}", self.lanes) } else { "core".to_string() };
        t += &format!("  {:<16} {:>7} {:>7} {:>7}  (routed MHz)\n", "", "min", "median", "max");
        t += &format!("  {:<16} {}\n", what, s(&self.core));
        t += &format!("  {:<16} {}\n", "bare BRAM loop", s(&self.bram_loop));
        if let Some(a) = &self.axi {
            t += &format!("  {:<16} {}\n", "AXI wrapper", s(&a.fmax));
        }
        t += &format!("  {:<16} {:.3}   (core median / BRAM loop median; goal >= 0.9)\n", "ratio", self.ratio);
        t += &format!("  {:<16} {:.3} G   (routed Fmax median x {} lane(s))\n", "lookups/s", self.lookups_per_second / 1e9, self.lanes);
        t += &format!("  {:<16} {}\n", if self.lanes > 1 { "LUT4 (lanes)" } else { "LUT4 (core)" }, self.luts);
        t += &format!("  {:<16} {}\n", "flip-flops", self.ffs);
        t += &format!("  {:<16} {}   (minimum for this filter: {})\n", "block RAM", self.brams, self.brams_minimum);
        if let Some(a) = &self.axi {
            t += &format!(
                "  {:<16} {:.3}   (AXI wrapper median / core median)\n  {:<16} {} LUT4, {} flip-flops with the core; the wrapper's own {} LUT4, {} flip-flops\n",
                "AXI ratio", a.ratio_to_core, "AXI wrapper", a.luts, a.ffs, a.wrapper_luts, a.wrapper_ffs
            );
        }
        if let Some(lc) = self.logic_cells {
            t += &format!("  {:<16} {}   (placed, harness included)\n", "logic cells", lc);
        }
        for (m, l) in &self.luts_per_hash_unit {
            t += &format!("  {:<16} {} LUT4 ({m})\n", "per hash unit", l);
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
        t
    }
}

/// Everything [`measure`] checks before any tool runs: seeds, the timing
/// target, the lanes (allowed for the filter, held by the part's block RAM, not
/// with the AXI wrapper); the target to use.
pub fn validate(core: &GeneratedCore, opts: &FmaxOptions) -> Result<f64, FlowError> {
    let d = opts.device;
    if opts.seeds == 0 || opts.seeds > 100 {
        return Err(FlowError::Invalid(format!("--seeds {}: must be 1..=100", opts.seeds)));
    }
    let target = opts.target_mhz.unwrap_or_else(|| default_target_mhz(d));
    if !(target.is_finite() && target > 0.0 && target <= 1000.0) {
        return Err(FlowError::Invalid(format!("target {target} MHz: must be in (0, 1000]")));
    }
    crate::build::check_lanes_fit_device(d, core, opts.lanes)?;
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

pub fn measure(core: &GeneratedCore, opts: &FmaxOptions) -> Result<FmaxReport, FlowError> {
    let d = opts.device;
    let target = validate(core, opts)?;
    let lanes = if opts.lanes > 1 {
        Some(hdl::lanes::lanes_around(core.clone(), opts.lanes, Default::default()).map_err(|e| FlowError::Invalid(e.to_string()))?)
    } else {
        None
    };
    let dir = &opts.out_dir;
    std::fs::create_dir_all(dir).map_err(|e| FlowError::Io(format!("creating {}: {e}", dir.display())))?;
    let family = d.family;
    let tools = crate::build::tool_versions(&[steps::synth_tool(family), steps::pnr_tool(family)])?;
    let p = &opts.progress;

    steps::write(&dir.join("core.v"), &core.verilog)?;
    steps::write(&dir.join("bram_loop.v"), &harness::bram_loop())?;
    let hier = match &lanes {
        None => {
            steps::write(&dir.join("harness.v"), &harness::fmax_harness(core)?)?;
            steps::synthesise(family, dir, "harness.v", HARNESS_TOP, "harness", p)?;
            steps::hierarchy_stats(family, dir, "core.v", &core.top, p)?
        }
        Some(g) => {
            steps::write(&dir.join("lanes.v"), &g.verilog)?;
            steps::write(&dir.join("harness.v"), &harness::lanes_fmax_harness(g))?;
            steps::synthesise(family, dir, "harness.v", LANES_HARNESS_TOP, "harness", p)?;
            steps::hierarchy_stats(family, dir, "lanes.v", &g.top, p)?
        }
    };
    steps::synthesise(family, dir, "bram_loop.v", BRAM_LOOP_TOP, "bram_loop", p)?;
    let core_cells = hier.get("design").cloned().unwrap_or_default();
    let axi = if opts.axi {
        let axi = hdl::axi::generate_axi(&core.config).map_err(|e| FlowError::Invalid(e.to_string()))?;
        steps::write(&dir.join("axi.v"), &axi.full_verilog())?;
        steps::write(&dir.join("axi_harness.v"), &harness::axi_fmax_harness(&axi))?;
        steps::synthesise(family, dir, "axi_harness.v", AXI_HARNESS_TOP, "axi_harness", p)?;
        let hier = steps::hierarchy_stats_named(family, dir, "axi.v", &axi.top, "axi-hier", p)?;
        Some(hier.get("design").cloned().unwrap_or_default())
    } else {
        None
    };

    let mut core_f = Vec::new();
    let mut loop_f = Vec::new();
    let mut first_core = None;
    let mut slowest: Option<(f64, Option<String>)> = None;
    let mut axi_f = Vec::new();
    let mut axi_brams = 0;
    let mut axi_slowest: Option<(f64, Option<String>)> = None;
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
        let cf = c.limiting_clock().map(|t| t.fmax_mhz).unwrap_or(0.0);
        let lf = l.limiting_clock().map(|t| t.fmax_mhz).unwrap_or(0.0);
        p.say(&format!("seed {seed}: core {cf:.2} MHz, BRAM loop {lf:.2} MHz"));
        core_f.push(cf);
        loop_f.push(lf);
        if slowest.as_ref().is_none_or(|(f, _)| cf < *f) {
            slowest = Some((cf, c.critical_path.clone()));
        }
        if first_core.is_none() {
            first_core = Some(c);
        }
        if axi.is_some() {
            let a = run("axi_harness.json", &format!("axi_harness-seed{seed}"))?;
            let af = a.limiting_clock().map(|t| t.fmax_mhz).unwrap_or(0.0);
            p.say(&format!("seed {seed}: AXI wrapper {af:.2} MHz"));
            axi_f.push(af);
            axi_brams = a.used(d.bram_bel).used;
            if axi_slowest.as_ref().is_none_or(|(f, _)| af < *f) {
                axi_slowest = Some((af, a.critical_path.clone()));
            }
        }
    }
    let first = first_core.expect("at least one seed");
    let core_s = Spread::of(&core_f);
    let core_median = core_s.median;
    let loop_s = Spread::of(&loop_f);
    let luts_per_module: BTreeMap<String, u64> = hier
        .iter()
        .filter(|(m, _)| m.as_str() != "design")
        .map(|(m, c)| (m.clone(), c.luts()))
        .collect();
    let luts_per_hash_unit = luts_per_module
        .iter()
        .filter(|(m, _)| m.contains("hash"))
        .map(|(m, l)| (m.clone(), *l))
        .collect();
    Ok(FmaxReport {
        device: d.name.into(),
        part: d.part.into(),
        package: d.default_package.into(),
        core_config: core.description(),
        seeds: opts.seeds,
        target_mhz: target,
        ratio: if loop_s.median > 0.0 { core_s.median / loop_s.median } else { 0.0 },
        core: core_s,
        bram_loop: loop_s,
        luts: core_cells.luts(),
        ffs: core_cells.ffs(),
        brams: first.used(d.bram_bel).used,
        brams_minimum: d.min_brams(core.config.params.k, core.config.params.bank_bits, core.config.params.counter_bits)
            * opts.lanes as u32,
        lanes: opts.lanes,
        lookups_per_second: core_median * 1e6 * opts.lanes as f64,
        logic_cells: (family == Family::Ice40).then(|| first.used(d.lut_bel).used),
        luts_per_hash_unit,
        luts_per_module,
        critical_path: slowest.and_then(|(_, p)| p),
        tools,
        out_dir: dir.display().to_string(),
        axi: axi.map(|cells| {
            let fmax = Spread::of(&axi_f);
            AxiCost {
                ratio_to_core: if core_median > 0.0 { fmax.median / core_median } else { 0.0 },
                fmax,
                luts: cells.luts(),
                ffs: cells.ffs(),
                wrapper_luts: cells.luts() as i64 - core_cells.luts() as i64,
                wrapper_ffs: cells.ffs() as i64 - core_cells.ffs() as i64,
                brams: axi_brams,
                critical_path: axi_slowest.and_then(|(_, p)| p),
            }
        }),
    })
}
