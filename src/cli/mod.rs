//! One module per subcommand. Each exposes `Args` (clap) and `run(Args)`.
//! Every output file or directory is written through `bloom_files`, every line on
//! standard output through `out!` / `outln!`.

/// `print!` for every command: standard output through `bloom_files::stdout` (a
/// closed pipe ends the command quietly with status 141, any other write error is
/// an error with status 1; never a panic).
macro_rules! out {
    ($($arg:tt)*) => {
        bloom_files::stdout::write_fmt(format_args!($($arg)*))
    };
}

/// `println!` for every command (see `out!`).
macro_rules! outln {
    () => {
        bloom_files::stdout::write_bytes(b"\n")
    };
    ($($arg:tt)*) => {
        bloom_files::stdout::write_fmt(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes a finished report to stdout (`bloom_files::stdout`: a closed pipe ends the
/// command quietly with status 141, any other write error is an error with status 1).
pub(crate) fn emit(text: &str) -> anyhow::Result<()> {
    bloom_files::stdout::write_bytes(text.as_bytes());
    Ok(())
}

pub mod build;
pub mod config;
pub mod export;
pub mod fmax;
pub mod fpr;
pub mod fpr_check;
pub mod host;
pub mod image;
pub mod run;
pub mod sim;
pub mod size;
pub mod vectors;
pub mod verilog;

/// `--replica-ports N` of the lanes (hdl/src/lanes, `ReplicaPorts`): 1, every query lane
/// with replicas of its own; 2, two query lanes on the two ports of each replica (a
/// true dual-port block RAM, as ECP5's); not given, `default`.
pub fn replica_ports(
    n: Option<u32>,
    default: hdl::lanes::ReplicaPorts,
) -> hdl::lanes::ReplicaPorts {
    match n {
        Some(2) => hdl::lanes::ReplicaPorts::Two,
        Some(_) => hdl::lanes::ReplicaPorts::One,
        None => default,
    }
}

/// Err when something other than a writable regular file is at `target`: an
/// output file option writes only a new file or over a writable regular file
/// (never through a symbolic link, into a FIFO or a device such as /dev/null,
/// over a directory or a read-only file). `option` names the option in the message.
pub fn check_output_file(option: &str, target: &std::path::Path) -> anyhow::Result<()> {
    bloom_files::check_file_target(target).map_err(|e| anyhow::anyhow!("{option} {e}"))
}
