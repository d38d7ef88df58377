//! `bloom`: the command-line front end of the partitioned Bloom filter project.
//!
//! Each subcommand lives in its own module under `cli/`; this file only routes.

mod cli;

use clap::{Parser, Subcommand};

/// Help and version go to standard output through the one checked path (a full disk
/// is an error there too); usage errors to standard error, with clap's status.
fn parse_failure(e: clap::Error) -> ! {
    use std::io::IsTerminal;
    if e.use_stderr() {
        let _ = e.print();
        std::process::exit(e.exit_code());
    }
    let text = if std::io::stdout().is_terminal() {
        e.render().ansi().to_string()
    } else {
        e.render().to_string()
    };
    bloom_files::stdout::write_bytes(text.as_bytes());
    std::process::exit(e.exit_code())
}

#[derive(Parser)]
#[command(
    name = "bloom",
    version,
    about = "Partitioned Bloom filter for FPGAs: golden model, theory, Rust-HDL core, co-simulation, bitstreams"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The default pipeline: configuration, golden model sample, theory, and
    /// (where the tools are installed) Verilog, co-simulation and bitstream.
    Run(cli::run::Args),
    /// False-positive rates: every formula for one point, the tables, the plots.
    Fpr(cli::fpr::Args),
    /// Size a filter for n items and a target false-positive rate.
    Size(cli::size::Args),
    /// Generate the core's Verilog and its configuration JSON.
    Verilog(cli::verilog::Args),
    /// Run random traffic through the Verilated core against the golden model.
    Sim(cli::sim::Args),
    /// Synthesise, place, route and pack a board bitstream, with a report.
    Build(cli::build::Args),
    /// Measure the core's routed maximum frequency on a device over seeds.
    Fmax(cli::fmax::Args),
    /// Talk to a filter on a board (or in simulation) over the UART bridge.
    Host(cli::host::Args),
    /// Filter images in software: build from keys, inspect, query, union, intersect.
    Image(cli::image::Args),
    /// Write the IP package: the core behind AXI4-Stream and AXI4-Lite, its register
    /// map, a vector testbench, board targets and a FuseSoC core file (docs/axi.md).
    Export(cli::export::Args),
    /// Write test vectors from the golden model and the self-checking Verilog
    /// testbench that runs them in any simulator.
    Vectors(cli::vectors::Args),
}

fn main() -> std::process::ExitCode {
    // Before any thread starts: temporaries are removed on SIGINT, SIGTERM, SIGHUP.
    bloom_files::interrupt::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => parse_failure(e),
    };
    let result = match cli.command {
        Command::Run(a) => cli::run::run(a),
        Command::Fpr(a) => cli::fpr::run(a),
        Command::Size(a) => cli::size::run(a),
        Command::Verilog(a) => cli::verilog::run(a),
        Command::Sim(a) => cli::sim::run(a),
        Command::Build(a) => cli::build::run(a),
        Command::Fmax(a) => cli::fmax::run(a),
        Command::Host(a) => cli::host::run(a),
        Command::Image(a) => cli::image::run(a),
        Command::Export(a) => cli::export::run(a),
        Command::Vectors(a) => cli::vectors::run(a),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
