//! `bloom export`: the IP package of one configuration (ip/src/package.rs):
//! the core and its AXI wrapper, the register map, a vector testbench, board
//! targets and a FuseSoC core file, in a new directory, complete or not at all.
//! With `--lanes L`: the package of `bloom_lanes_axis`, L lanes behind one
//! AXI4-Stream face (ip/src/lane_package.rs).

use std::path::PathBuf;

use crate::cli::config::CoreArgs;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub core: CoreArgs,
    /// Directory to write the package into; it must not exist or be empty.
    #[arg(long)]
    pub out: PathBuf,
    /// Memory image (docs/contract.md §4) to use as the banks' initial contents.
    #[arg(long)]
    pub preload: Option<PathBuf>,
    /// Stream requests in the package's vector set (the sim targets run them).
    #[arg(long, default_value_t = 2000)]
    pub ops: u64,
    /// Seed of the vector set's traffic.
    #[arg(long = "traffic-seed", default_value_t = 1)]
    pub traffic_seed: u64,
    /// Build the scrub into the core (docs/contract.md section 5.2): COMMAND.scrub recounts every bank while the core
    /// serves, STATUS.scrub_busy and SCRUB_MISMATCH show it (docs/axi.md). Without it those registers read 0.
    #[arg(long, conflicts_with = "lanes")]
    pub scrub: bool,
    /// With --scrub: the core also starts a scrub itself every N cycles after a reset (SCRUB_EVERY): 2..=16777216.
    #[arg(long, requires = "scrub", value_parser = clap::value_parser!(u32).range(2..=hdl::MAX_SCRUB_EVERY as i64))]
    pub scrub_every: Option<u32>,
    /// Package bloom_lanes_axis instead: L lanes, up to L operations per clock behind one AXI4-Stream face
    /// (docs/contract.md section 8), 2..=128, of a plain or a counting filter; --ops then counts the operations in the beats.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=hdl::lanes::MAX_LANES as i64))]
    pub lanes: Option<u32>,
    /// With --lanes: 1, every query lane reads replicas of its own (any FPGA); 2, two query
    /// lanes share each replica, one on each port of a true dual-port block RAM (ECP5's
    /// DP16KD; half the block RAM, answers a cycle later; docs/core.md, "Lanes").
    #[arg(long, requires = "lanes", value_parser = clap::value_parser!(u32).range(1..=2))]
    pub replica_ports: Option<u32>,
}

fn run_lanes(args: &Args, lanes: usize) -> anyhow::Result<()> {
    let params = args.core.params;
    let cfg = hdl::CoreConfig {
        preload: args.preload.clone(),
        ..params.into()
    };
    let ports = crate::cli::replica_ports(args.replica_ports, hdl::lanes::ReplicaPorts::One);
    let generated =
        hdl::lanes::generate_lanes_with(&cfg, lanes, ports, hdl::lanes::LaneSwitches::default())?;
    let axis = hdl::axi::lanes::axis_around(&generated)?;
    let vectors = crate::cli::vectors::generate_lanes(
        &params,
        lanes,
        args.preload.as_deref(),
        args.ops,
        args.traffic_seed,
    )?;
    let config_args = CoreArgs::command_line(&params);
    let mut command = format!("bloom export --lanes {lanes} {config_args}");
    if ports == hdl::lanes::ReplicaPorts::Two {
        command += " --replica-ports 2";
    }
    if let Some(p) = &args.preload {
        command += &format!(" --preload {}", p.display());
    }
    command += &format!(
        " --ops {} --traffic-seed {} --out DIR",
        args.ops, args.traffic_seed
    );
    let files = ip::lane_package::lanes_package_files(&ip::lane_package::LanesPackageInput {
        lanes: &generated,
        axis: &axis,
        vectors: &vectors,
        command,
        config_args,
    })
    .map_err(anyhow::Error::msg)?;
    ip::package::write_tree(&args.out, &files).map_err(anyhow::Error::msg)?;
    let name = ip::lane_package::lanes_core_name(&generated);
    outln!(
        "wrote {} ({} files): FuseSoC core {name}, {params}, {lanes} lanes",
        args.out.display(),
        files.len(),
    );
    outln!(
        "  try: cd {} && fusesoc --cores-root . run --target sim {name}",
        args.out.display(),
    );
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ops == 0 || args.ops > ip::vectors::MAX_OPS {
        anyhow::bail!("--ops {}: must be 1..={}", args.ops, ip::vectors::MAX_OPS);
    }
    if let Some(lanes) = args.lanes {
        return run_lanes(&args, lanes as usize);
    }
    let params = args.core.params;
    // Everything is generated and checked in memory before anything is written.
    let cfg = hdl::CoreConfig {
        preload: args.preload.clone(),
        scrub: args.scrub,
        scrub_every: args.scrub_every,
        ..params.into()
    };
    let axi = hdl::axi::generate_axi(&cfg)?;
    let vectors = crate::cli::vectors::generate(
        &params,
        args.preload.as_deref(),
        args.ops,
        args.traffic_seed,
        (args.scrub, args.scrub_every),
    )?;
    let mut command = format!("bloom export {}", CoreArgs::command_line(&params));
    if let Some(p) = &args.preload {
        command += &format!(" --preload {}", p.display());
    }
    if args.scrub {
        command += " --scrub";
    }
    if let Some(n) = args.scrub_every {
        command += &format!(" --scrub-every {n}");
    }
    command += &format!(
        " --ops {} --traffic-seed {} --out DIR",
        args.ops, args.traffic_seed
    );
    let files = ip::package::package_files(&ip::package::PackageInput {
        axi: &axi,
        vectors: &vectors,
        command,
    })
    .map_err(anyhow::Error::msg)?;
    ip::package::write_tree(&args.out, &files).map_err(anyhow::Error::msg)?;
    outln!(
        "wrote {} ({} files): FuseSoC core {}, {params}",
        args.out.display(),
        files.len(),
        ip::package::core_name(&axi)
    );
    outln!(
        "  try: cd {} && fusesoc --cores-root . run --target sim {}",
        args.out.display(),
        ip::package::core_name(&axi)
    );
    Ok(())
}
