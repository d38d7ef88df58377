//! Verilator co-simulation of the generated Verilog, driven from Rust.
//!
//! - [`verilator`]: builds a Verilator model from Verilog text and a top module
//!   name at run time, cached by content, and loads it ([`build`]).
//! - [`model`]: the safe handle on a loaded model ([`Model`]): set inputs, step
//!   the clock, read outputs, stream whole buffers of handshakes, VCD traces.
//! - [`ports`]: reads a module's port list from its Verilog.
//! - [`core`]: the generated `bloom_core` (from `hdl`) as a Verilated model.
//! - [`traffic`], [`checker`], [`cosim`]: seeded traffic, the cycle-exact
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
pub mod cosim;
pub mod cycles;
pub mod fpr;
pub mod lanes;
pub mod model;
pub mod netlist;
pub mod ports;
pub mod rusthdl;
pub mod shim;
pub mod side;
pub mod traffic;
pub mod verilator;
pub mod wavedrom;

pub use checker::{Checker, CycleIo, Mismatch, ResetCoverage, ScrubCoverage};
pub use core::VerilatedCore;
pub use cosim::{run_sharded, shard_traffic_seed, CoSim, RunOptions, RunReport};
pub use traffic::{Request, SideTraffic, Traffic, TrafficShape};

pub use model::{
    Handshake, InitialState, Model, ModelLibrary, PortId, PowerUp, SidePorts, StreamOutput,
};
pub use netlist::{Netlist, NetlistKind};
pub use ports::{Direction, Port};
pub use verilator::{build, cache_dir, verilator_version, CppOpt, ModelOptions};

use std::path::Path;

/// The corner configurations every co-simulation sweep covers (`bloom sim
/// --sweep`, the cargo tests): each parameter at its extremes and at the
/// values where the generated Verilog changes shape: k 1, 7, 9 (above 8) and
/// 16; bank bits 6, 12 (one iCE40 block RAM), 13 (above 12: two) and 16;
/// 32-, 64- and 128-bit keys; every hash family (Feistel also at its most blocks,
/// eight, k = 16, b = 16, W = 32).
pub fn corner_configs() -> Vec<hdl::CoreParams> {
    use golden::HashFamily::{Crc, Feistel, Spn, H3};
    [
        (1, 6, 32, H3, 1),
        (4, 12, 64, H3, 0),
        (7, 13, 32, Crc, 2),
        (9, 8, 128, Crc, 3),
        (16, 6, 128, H3, 4),
        (2, 16, 64, Crc, 5),
        (4, 12, 64, Spn, 6),
        (4, 12, 64, Feistel, 7),
        (16, 16, 32, Feistel, 8),
    ]
    .into_iter()
    .map(|(k, b, w, h, seed)| hdl::CoreParams::new(k, b, w, h, seed).expect("a valid corner"))
    .collect()
}

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
