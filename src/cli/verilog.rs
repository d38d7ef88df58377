//! `bloom verilog`: writes the core's Verilog (`bloom_core.v`) and a JSON file with its
//! configuration and timing (`bloom_core.json`) into `--out DIR`; with `--lanes L`
//! also `bloom_lanes.v`, L lanes (lane 0 a core, L - 1 query lanes; it holds every
//! module it needs, not `bloom_core`), and
//! `bloom_lanes_axis.v`, its AXI4-Stream face (docs/core.md, "Lanes").

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::cli::config::CoreArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub core: CoreArgs,
    /// Directory to write bloom_core.v and bloom_core.json into (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Memory image directory (docs/contract.md §4) to use as the banks' initial contents.
    #[arg(long)]
    pub preload: Option<PathBuf>,
    /// Also write bloom_lanes.v, up to L operations per clock (docs/contract.md section 8; a plain or a counting filter), and
    /// bloom_lanes_axis.v, its AXI4-Stream face with L keys per beat: 1..=128.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=hdl::lanes::MAX_LANES as i64))]
    pub lanes: Option<u32>,
    /// With --lanes: 1, every query lane reads replicas of its own (any FPGA); 2, two query
    /// lanes share each replica, one on each port of a true dual-port block RAM (ECP5's
    /// DP16KD; half the block RAM, answers a cycle later; docs/core.md, "Lanes").
    #[arg(long, requires = "lanes", value_parser = clap::value_parser!(u32).range(1..=2))]
    pub replica_ports: Option<u32>,
    /// Build the scrub into the core (docs/contract.md section 5.2): scrub_req recounts every bank while the core serves and
    /// scrub_mismatch reports, bit p, a bank whose count differs from its fill counter. Without it those ports read 0.
    #[arg(long, conflicts_with = "lanes")]
    pub scrub: bool,
    /// With --scrub: the core also requests a scrub itself every N cycles after a reset (docs/contract.md section 5.2,
    /// "Periodic"): 2..=16777216.
    #[arg(long, requires = "scrub", value_parser = clap::value_parser!(u32).range(2..=hdl::MAX_SCRUB_EVERY as i64))]
    pub scrub_every: Option<u32>,
}

/// What `bloom verilog` does, validated.
pub struct Job {
    pub core: hdl::CoreConfig,
    pub out: PathBuf,
    pub lanes: Option<usize>,
    pub replica_ports: hdl::lanes::ReplicaPorts,
}

impl Args {
    pub fn job(self) -> Job {
        Job {
            core: hdl::CoreConfig {
                preload: self.preload,
                scrub: self.scrub,
                scrub_every: self.scrub_every,
                ..self.core.params.into()
            },
            out: self.out,
            lanes: self.lanes.map(|l| l as usize),
            replica_ports: crate::cli::replica_ports(
                self.replica_ports,
                hdl::lanes::ReplicaPorts::One,
            ),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    write(&args.job())?;
    Ok(())
}

/// Generates the core and writes `bloom_core.v` and `bloom_core.json` into `job.out`.
pub fn write(job: &Job) -> anyhow::Result<hdl::GeneratedCore> {
    // Everything is generated in memory first: an invalid input writes nothing.
    let core = hdl::generate_core(&job.core)?;
    let lanes = match job.lanes {
        Some(l) => Some(hdl::lanes::lanes_around_with(
            core.clone(),
            l,
            job.replica_ports,
            Default::default(),
        )?),
        None => None,
    };
    let lanes_axis = match &lanes {
        Some(g) => Some(hdl::axi::lanes::axis_around(g)?),
        None => None,
    };
    let json = serde_json::to_string_pretty(&core.description())? + "\n";
    if job.out.exists() && !job.out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", job.out.display());
    }
    std::fs::create_dir_all(&job.out)
        .with_context(|| format!("cannot create --out directory {}", job.out.display()))?;
    let mut files = vec![
        ("bloom_core.v", core.verilog.as_str()),
        ("bloom_core.json", json.as_str()),
    ];
    if let (Some(g), Some(a)) = (&lanes, &lanes_axis) {
        files.push(("bloom_lanes.v", g.top_module.as_str()));
        files.push(("bloom_lanes_axis.v", a.top_module.as_str()));
    }
    write_all_or_nothing(&job.out, &files)?;
    outln!(
        "wrote {}/bloom_core.v and bloom_core.json ({}; latency {} cycles, clear {} cycles)",
        job.out.display(),
        core.config.params,
        core.timing.latency,
        core.timing.clear_cycles
    );
    if let Some(g) = &lanes {
        outln!(
            "wrote {}/bloom_lanes.v ({} lanes: lane 0 and {} query lanes)",
            job.out.display(),
            g.lanes,
            g.lanes - 1
        );
        outln!(
            "wrote {}/bloom_lanes_axis.v (bloom_lanes behind AXI4-Stream, {} keys per beat)",
            job.out.display(),
            g.lanes
        );
    }
    Ok(core)
}

/// Writes each file under a fresh temporary name beside it (`bloom_files::OutputFile`),
/// then renames them all into place: every target is checked before anything is
/// written, and on any failure (or an interrupt) the temporaries are removed and no
/// final name is touched.
fn write_all_or_nothing(dir: &Path, files: &[(&str, &str)]) -> anyhow::Result<()> {
    for (name, _) in files {
        crate::cli::check_output_file("--out", &dir.join(name))?;
    }
    let mut written = Vec::with_capacity(files.len());
    for (name, text) in files {
        let mut out = bloom_files::OutputFile::create(&dir.join(name))?;
        out.write_all(text.as_bytes())?;
        written.push(out);
    }
    for out in written {
        out.commit()?;
    }
    Ok(())
}
