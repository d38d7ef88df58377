//! Verilator co-simulation of the generated Verilog, driven from Rust.
//!
//! - [`verilator`]: builds a Verilator model from Verilog text and a top module
//!   name at run time, cached by content, and loads it ([`build`]).
//! - [`model`]: the safe handle on a loaded model ([`Model`]): set inputs, step
//!   the clock, read outputs, stream whole buffers of handshakes, VCD traces.
//! - [`ports`]: reads a module's port list from its Verilog.
//! - [`core`]: the generated `bloom_core` (from `hdl`) as a Verilated model.
//! - [`traffic`], [`checker`], [`harness`]: seeded traffic, the cycle-exact
//!   checker against the golden model, and the run loop ([`CoSim`]).
//! - [`rusthdl`]: the same core in rust-hdl's simulator, for three-way checks.
//! - [`fpr`]: the measured false-positive rate against the exact formula.
//!
//! Commands:
//! - `cargo test -p sim`: driver, co-simulation, property, three-way, teeth and
//!   false-positive tests (models are built once and cached, see [`cache_dir`]).
//! - `cargo test -p sim --release --test cosim -- --ignored soak`: 8 M checked
//!   operations over the four test configurations.
//! - `cargo bench -p sim --bench cosim_speed`: throughput of the default
//!   configuration, golden model and checks included; `--bench verilator_raw`:
//!   the Verilated core alone.
//! - `bloom sim --help`: the same co-simulation from the command line.

pub mod cells;
pub mod checker;
pub mod core;
pub mod cycles;
pub mod fpr;
pub mod harness;
pub mod model;
pub mod netlist;
pub mod ports;
pub mod rusthdl;
pub mod shim;
pub mod traffic;
pub mod wavedrom;
pub mod verilator;

pub use checker::{Checker, CycleIo, Mismatch, ResetCoverage};
pub use core::VerilatedCore;
pub use harness::{run_sharded, shard_traffic_seed, CoSim, RunOptions, RunReport};
pub use traffic::{Request, SideTraffic, Traffic, TrafficShape};

pub use model::{Handshake, InitialState, Model, ModelLibrary, PortId, SidePorts, StreamOutput};
pub use ports::{Direction, Port};
pub use netlist::{Netlist, NetlistKind};
pub use verilator::{build, cache_dir, verilator_version, BuildOptions, CppOpt};

use std::path::Path;

/// Errors of the co-simulation.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("verilator is not available: {0}")]
    VerilatorMissing(String),
    #[error("Verilator build failed: {0}")]
    Build(String),
    #[error("cannot load the Verilated model: {0}")]
    Load(String),
    #[error("cannot read the Verilog ports: {0}")]
    Ports(String),
    #[error("no port named `{0}`")]
    UnknownPort(String),
    #[error("{0}")]
    Value(String),
    #[error("{0}")]
    Io(String),
}

impl SimError {
    pub(crate) fn io(path: &Path, e: std::io::Error) -> SimError {
        SimError::Io(format!("{}: {e}", path.display()))
    }
}
