//! `bloom fmax`: the core's routed maximum frequency on a part over several
//! nextpnr seeds, beside a bare block-RAM loop on the same part, and with
//! `--axi` the AXI wrapper's beside it (see flow/src/fmax.rs). With `--lanes
//! L` it measures `bloom_lanes` (L replicas of the core, hdl/src/lanes.rs) and
//! its lookups per second; with a list (`--lanes 1,2,4`) it sweeps them, and
//! names the lane count with the most lookups per second that the part holds
//! (`lanes.json`, `lanes.svg`: lookups per second against L).

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
    /// Lanes (docs/contract.md section 8): one count, or a list to sweep (1,2,4,8); each 1..=64.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=hdl::lanes::MAX_LANES as i64))]
    pub lanes: Vec<u32>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let device = args.device;
    let core = flow::generate_core(&args.core.params.into())?;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("build").join(format!("fmax-{}", device.name)));
    if out.exists() && !out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", out.display());
    }
    let progress = || if args.quiet { flow::tools::Progress::quiet() } else { flow::tools::Progress::new("[fmax] ") };
    if args.lanes.len() > 1 {
        return sweep(&args, &core, &out);
    }
    let opts = flow::fmax::FmaxOptions {
        device,
        seeds: args.seeds,
        target_mhz: args.target_mhz,
        out_dir: out.clone(),
        progress: progress(),
        axi: args.axi,
        lanes: args.lanes.first().map_or(1, |l| *l as usize),
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

/// `--lanes` with several counts: every count checked against the part's block
/// RAM first, then each measured in `OUT/lanes-L`; a count whose design does
/// not place and route on the part is reported as such, not measured.
fn sweep(args: &Args, core: &hdl::GeneratedCore, out: &std::path::Path) -> anyhow::Result<()> {
    if args.axi {
        anyhow::bail!("--lanes with several counts and --axi: bloom_axis carries one lane (measure them apart)");
    }
    for &l in &args.lanes {
        flow::build::check_lanes_fit_device(args.device, core, l as usize)?;
    }
    std::fs::create_dir_all(out)?;
    let mut rows = Vec::new();
    for &l in &args.lanes {
        let opts = flow::fmax::FmaxOptions {
            device: args.device,
            seeds: args.seeds,
            target_mhz: args.target_mhz,
            out_dir: out.join(format!("lanes-{l}")),
            progress: if args.quiet { flow::tools::Progress::quiet() } else { flow::tools::Progress::new(&format!("[fmax L={l}] ")) },
            axi: false,
            lanes: l as usize,
        };
        match flow::fmax::measure(core, &opts) {
            Ok(r) => {
                std::fs::write(opts.out_dir.join("fmax.json"), serde_json::to_string_pretty(&r)? + "\n")?;
                rows.push(serde_json::json!({
                    "lanes": l, "fmax_mhz_median": r.core.median, "fmax_mhz_min": r.core.min, "fmax_mhz_max": r.core.max,
                    "lookups_per_second": r.lookups_per_second, "luts": r.luts, "ffs": r.ffs, "brams": r.brams,
                    "logic_cells": r.logic_cells, "bram_loop_fmax_mhz_median": r.bram_loop.median,
                }));
            }
            Err(e) => rows.push(serde_json::json!({ "lanes": l, "error": e.to_string() })),
        }
    }
    let best = rows
        .iter()
        .filter(|r| r.get("lookups_per_second").is_some())
        .max_by(|a, b| a["lookups_per_second"].as_f64().unwrap_or(0.0).total_cmp(&b["lookups_per_second"].as_f64().unwrap_or(0.0)))
        .cloned();
    let summary = serde_json::json!({
        "device": args.device.name, "seeds": args.seeds, "core": core.config.params.to_string(),
        "rows": rows, "best": best,
    });
    std::fs::write(out.join("lanes.json"), serde_json::to_string_pretty(&summary)? + "\n")?;
    let points: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| Some((r["lanes"].as_f64()?, r.get("lookups_per_second")?.as_f64()? / 1e9)))
        .collect();
    if !points.is_empty() {
        plot_sweep(&out.join("lanes.svg"), args.device.part, &points)?;
    }
    if args.json {
        println!("{summary}");
        return Ok(());
    }
    println!("bloom fmax --lanes: {} ({}), {} seed(s), core {}", args.device.name, args.device.part, args.seeds, core.config.params);
    println!("  {:>5} {:>10} {:>10} {:>8} {:>8} {:>6}", "lanes", "Fmax MHz", "lookups/s", "LUT4", "FF", "BRAM");
    for r in &rows {
        match r.get("error") {
            Some(e) => println!("  {:>5} {}", r["lanes"].as_u64().unwrap_or(0), e.as_str().unwrap_or("").lines().next().unwrap_or("")),
            None => println!(
                "  {:>5} {:>10.2} {:>9.3}G {:>8} {:>8} {:>6}",
                r["lanes"].as_u64().unwrap_or(0),
                r["fmax_mhz_median"].as_f64().unwrap_or(0.0),
                r["lookups_per_second"].as_f64().unwrap_or(0.0) / 1e9,
                r["luts"].as_u64().unwrap_or(0),
                r["ffs"].as_u64().unwrap_or(0),
                r["brams"].as_u64().unwrap_or(0)
            ),
        }
    }
    match &best {
        Some(b) => println!(
            "  most lookups per second: L = {} ({:.3} G/s at {:.2} MHz)",
            b["lanes"],
            b["lookups_per_second"].as_f64().unwrap_or(0.0) / 1e9,
            b["fmax_mhz_median"].as_f64().unwrap_or(0.0)
        ),
        None => println!("  no lane count placed and routed on this part"),
    }
    println!("  {}  {}", out.join("lanes.json").display(), out.join("lanes.svg").display());
    Ok(())
}

/// Lookups per second (G/s) against lanes, one point per lane count measured.
fn plot_sweep(path: &std::path::Path, part: &str, points: &[(f64, f64)]) -> anyhow::Result<()> {
    use plotters::prelude::*;
    crate::cli::fpr::plots::register_font()?;
    let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("plotting {}: {e}", path.display());
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let xmax = points.iter().map(|p| p.0).fold(1.0, f64::max) + 1.0;
    let ymax = points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.15 + 1e-3;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("bloom_lanes on {part}: lookups per second against lanes"), ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc("lanes L").y_desc("G lookups/s (routed Fmax x L)").draw().map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new(points.iter().copied(), &BLUE)).map_err(|e| err(&e))?;
    chart.draw_series(points.iter().map(|p| Circle::new(*p, 4, BLUE.filled()))).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
