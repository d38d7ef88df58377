//! `bloom verilog`: writes the core's Verilog (`bloom_core.v`) and a JSON file with its
//! configuration and timing (`bloom_core.json`) into `--out DIR`.

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
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let cfg = args.core.hdl_config(args.preload.clone())?;
    // Everything is generated in memory first: an invalid input writes nothing.
    let core = hdl::generate_core(&cfg)?;
    let json = serde_json::to_string_pretty(&core.config_json)? + "\n";
    if args.out.exists() && !args.out.is_dir() {
        anyhow::bail!("--out {} exists and is not a directory", args.out.display());
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create --out directory {}", args.out.display()))?;
    let files = [("bloom_core.v", core.verilog.as_str()), ("bloom_core.json", json.as_str())];
    write_all_or_nothing(&args.out, &files)?;
    println!(
        "wrote {}/bloom_core.v and bloom_core.json (k={} bank_bits={} key_bits={} hash={} seed={}; latency {} cycles, clear {} cycles)",
        args.out.display(),
        cfg.k,
        cfg.bank_bits,
        cfg.key_bits,
        cfg.hash,
        cfg.seed,
        core.latency,
        core.clear_cycles
    );
    Ok(())
}

/// Writes each file under a temporary name, then renames them all into place; on any
/// failure the temporary files are removed and no final name is touched.
fn write_all_or_nothing(dir: &Path, files: &[(&str, &str)]) -> anyhow::Result<()> {
    let tmp = |name: &str| dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let cleanup = || {
        for (name, _) in files {
            let _ = std::fs::remove_file(tmp(name));
        }
    };
    for (name, text) in files {
        if let Err(e) = std::fs::write(tmp(name), text) {
            cleanup();
            return Err(e).with_context(|| format!("cannot write {}", dir.join(name).display()));
        }
    }
    for (name, _) in files {
        if let Err(e) = std::fs::rename(tmp(name), dir.join(name)) {
            cleanup();
            return Err(e).with_context(|| format!("cannot write {}", dir.join(name).display()));
        }
    }
    Ok(())
}
