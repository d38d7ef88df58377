//! `bloom fmax`: the core's routed maximum frequency on a part over several
//! nextpnr seeds, beside a bare block-RAM loop on the same part, and with
//! `--axi` the AXI wrapper's beside it (see flow/src/fmax.rs). With `--lanes
//! L` it measures `bloom_lanes` (L replicas of the core, hdl/src/lanes/mod.rs) and
//! its lookups per second; with a list (`--lanes 1,2,4`) it sweeps them, and
//! names the lane count with the most lookups per second that the part holds
//! (`lanes.json`, `lanes.svg`: lookups per second against L).

use std::path::PathBuf;

use crate::cli::config::{device_parser, CoreArgs};

#[derive(clap::Args)]
pub struct Args {
    /// Device (flow/src/board.rs).
    #[arg(long, value_parser = device_parser())]
    pub device: &'static flow::board::Device,
    #[command(flatten)]
    pub core: CoreArgs,
    /// Number of nextpnr seeds (1, 2, ... N) for each design: 10 or more give each
    /// ratio an interval; iCE40 Fmax spreads 10-15% over seeds.
    #[arg(long, default_value_t = 3)]
    pub seeds: u32,
    /// nextpnr's timing target in MHz for both designs (default: per device, above both).
    #[arg(long = "target-mhz")]
    pub target_mhz: Option<f64>,
    /// Working directory for netlists and logs. Default build/fmax-DEVICE.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also place and route the AXI wrapper (bloom_axis, docs/axi.md) around the
    /// same core: its Fmax beside the bare core's and beside the core's with its
    /// handshakes closed by the simplest client (a request held until taken, a
    /// response captured when taken), and its LUTs and flip-flops.
    #[arg(long)]
    pub axi: bool,
    /// Print one JSON object (device, fmax_mhz_median, bram_loop_fmax_mhz_median,
    /// ratio, ratio_interval, goal_ratio, verdict, luts, ffs, brams; with --axi also
    /// axi_fmax_mhz_median, axi_ratio_to_core, axi_ratio_to_core_interval,
    /// axi_ratio_to_loop, axi_ratio_to_loop_interval, client_fmax_mhz_median,
    /// axi_ratio_to_client, axi_ratio_to_client_interval, axi_luts,
    /// axi_ffs, axi_wrapper_luts, axi_wrapper_ffs) instead of the table. An interval
    /// is the ratio's 95% bootstrap interval over the seeds (null below 10 seeds);
    /// the verdict against goal_ratio is met or missed only when the whole interval
    /// says so, else unresolved. LUTs and flip-flops are the core's (and
    /// bloom_axis's) synthesised alone and flattened, as a build makes them.
    #[arg(long)]
    pub json: bool,
    /// No progress messages.
    #[arg(long)]
    pub quiet: bool,
    /// Lanes (docs/contract.md section 8): one count, or a list to sweep (1,2,4,8); each 1..=128.
    /// A count the part cannot hold is refused before any tool runs: L x k banks over its
    /// block RAM, or (iCE40) more logic cells than it has by an estimate from the
    /// configuration (calibrated on synth_ice40, the error names the most lanes it
    /// allows); a design whose synthesised netlist needs more logic cells than the part
    /// has is refused before nextpnr (docs/core.md, "What fits a part").
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=hdl::lanes::MAX_LANES as i64))]
    pub lanes: Vec<u32>,
    /// With --lanes: 1, every query lane reads replicas of its own; 2, two query lanes
    /// share each replica, one on each port of a true dual-port block RAM (ECP5's
    /// DP16KD; refused on iCE40). Default: the device's, 2 on ECP5 and 1 on iCE40.
    #[arg(long, requires = "lanes", value_parser = clap::value_parser!(u32).range(1..=2))]
    pub replica_ports: Option<u32>,
    /// Measure the core generated with the scrub (docs/contract.md section 5.2: scrub_req, scrub_busy, scrub_mismatch).
    #[arg(long, conflicts_with = "lanes")]
    pub scrub: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let device = args.device;
    let core = flow::generate_core(&hdl::CoreConfig {
        scrub: args.scrub,
        ..args.core.params.into()
    })?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("build").join(format!("fmax-{}", device.name)));
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", out.display());
    }
    if args.lanes.len() > 1 {
        return sweep(&args, &core, &out);
    }
    let opts = options(
        &args,
        out.clone(),
        args.lanes.first().map_or(1, |l| *l as usize),
        "[fmax] ",
    );
    let report = flow::fmax::measure(&core, &opts)?;
    write_report(&out, &report)?;
    if args.json {
        outln!("{}", report.summary_json());
    } else {
        out!("{}", report.table());
        outln!("  full report      {}", out.join("fmax.json").display());
    }
    Ok(())
}

/// The options of one measurement of `lanes` lanes into `out_dir`.
fn options(args: &Args, out_dir: PathBuf, lanes: usize, prefix: &str) -> flow::fmax::FmaxOptions {
    flow::fmax::FmaxOptions {
        device: args.device,
        seeds: args.seeds,
        target_mhz: args.target_mhz,
        out_dir,
        progress: if args.quiet {
            flow::tools::Progress::quiet()
        } else {
            flow::tools::Progress::new(prefix)
        },
        axi: args.axi,
        lanes,
        replica_ports: crate::cli::replica_ports(args.replica_ports, args.device.replica_ports()),
    }
}

/// The full report, `fmax.json` in `dir`.
fn write_report(dir: &std::path::Path, report: &flow::fmax::FmaxReport) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(report)? + "\n";
    bloom_files::write_file(&dir.join("fmax.json"), text.as_bytes())?;
    Ok(())
}

/// `--lanes` with several counts: every count checked first (as one measurement
/// would check it, before any tool runs), then each measured in `OUT/lanes-L`;
/// a count whose design does not place and route on the part is reported as
/// such, not measured.
fn sweep(args: &Args, core: &hdl::GeneratedCore, out: &std::path::Path) -> anyhow::Result<()> {
    let runs: Vec<(u32, flow::fmax::FmaxOptions)> = args
        .lanes
        .iter()
        .map(|&l| {
            (
                l,
                options(
                    args,
                    out.join(format!("lanes-{l}")),
                    l as usize,
                    &format!("[fmax L={l}] "),
                ),
            )
        })
        .collect();
    for (_, opts) in &runs {
        flow::fmax::validate(core, opts)?;
    }
    std::fs::create_dir_all(out)?;
    let mut results = Vec::new();
    for (l, opts) in &runs {
        let result = flow::fmax::measure(core, opts).map_err(|e| e.to_string());
        if let Ok(r) = &result {
            write_report(&opts.out_dir, r)?;
        }
        results.push((*l, result));
    }
    let best = results
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .max_by(|a, b| a.lookups_per_second.total_cmp(&b.lookups_per_second));
    let rows: Vec<serde_json::Value> = results
        .iter()
        .map(|(l, r)| match r {
            Ok(r) => r.summary_json(),
            Err(e) => serde_json::json!({ "lanes": l, "error": e }),
        })
        .collect();
    let summary = serde_json::json!({
        "device": args.device.name, "seeds": args.seeds, "core": core.config.params.to_string(),
        "rows": rows, "best": best.map(|r| r.summary_json()),
    });
    let text = serde_json::to_string_pretty(&summary)? + "\n";
    bloom_files::write_file(&out.join("lanes.json"), text.as_bytes())?;
    let points: Vec<(f64, f64)> = results
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .map(|r| (r.lanes as f64, r.lookups_per_second / 1e9))
        .collect();
    if !points.is_empty() {
        plot_sweep(&out.join("lanes.svg"), args.device.part, &points)?;
    }
    if args.json {
        outln!("{summary}");
        return Ok(());
    }
    outln!(
        "bloom fmax --lanes: {} ({}), {} seed(s), core {}",
        args.device.name,
        args.device.part,
        args.seeds,
        core.config.params
    );
    outln!(
        "  {:>5} {:>10} {:>10} {:>8} {:>8} {:>6}  Fmax / BRAM loop (95% interval, 10 seeds or more)",
        "lanes",
        "Fmax MHz",
        "lookups/s",
        "LUT4",
        "FF",
        "BRAM",
    );
    for (l, r) in &results {
        match r {
            Err(e) => outln!("  {l:>5} {}", e.lines().next().unwrap_or("")),
            Ok(r) => outln!(
                "  {l:>5} {:>10.2} {:>9.3}G {:>8} {:>8} {:>6}  {:.3}{}",
                r.core.median,
                r.lookups_per_second / 1e9,
                r.luts,
                r.ffs,
                r.brams,
                r.ratio,
                r.ratio_interval
                    .map(|(lo, hi)| format!(" ({lo:.3}..{hi:.3})"))
                    .unwrap_or_default()
            ),
        }
    }
    match best {
        Some(b) => outln!(
            "  most lookups per second: L = {} ({:.3} G/s at {:.2} MHz)",
            b.lanes,
            b.lookups_per_second / 1e9,
            b.core.median
        ),
        None => outln!("  no lane count placed and routed on this part"),
    }
    outln!(
        "  {}  {}",
        out.join("lanes.json").display(),
        out.join("lanes.svg").display()
    );
    Ok(())
}

/// Lookups per second (G/s) against lanes, one point per lane count measured.
fn plot_sweep(path: &std::path::Path, part: &str, points: &[(f64, f64)]) -> anyhow::Result<()> {
    use plotters::prelude::*;
    crate::cli::fpr::plots::register_font()?;
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("plotting {}: {e}", path.display());
    let out = bloom_files::OutputFile::create(path)?;
    let root = SVGBackend::new(out.temp_path(), (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let xmax = points.iter().map(|p| p.0).fold(1.0, f64::max) + 1.0;
    let ymax = points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.15 + 1e-3;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("bloom_lanes on {part}: lookups per second against lanes"),
            ("sans-serif", 22),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("lanes L")
        .y_desc("G lookups/s (routed Fmax x L)")
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(points.iter().copied(), &BLUE))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(points.iter().map(|p| Circle::new(*p, 4, BLUE.filled())))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    drop(chart);
    drop(root);
    out.commit()?;
    Ok(())
}
