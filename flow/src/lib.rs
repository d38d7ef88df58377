//! The open-source FPGA flow for the bloom core: board descriptions, board
//! tops (with the UART host bridge or a test pattern) and the Fmax harness, constraint files, PLL settings, and the steps
//! Yosys -> nextpnr -> packer -> programmer, each keeping its tool's full log,
//! with the report (routed Fmax, timing, resources, tool versions).
//!
//! The core comes in as an [`hdl::GeneratedCore`] (see [`generate_core`]):
//! its Verilog, top name, configuration and timing.

pub mod bitstream;
pub mod board;
pub mod bram;
pub mod bridge;
pub mod build;
pub mod constraints;
pub mod fit;
pub mod fmax;
pub mod harness;
pub mod nextpnr;
pub mod pll;
pub mod steps;
pub mod swap;
pub mod tools;
pub mod top;

use std::path::PathBuf;

pub use hdl::GeneratedCore;

/// Generates the core's Verilog for `cfg` with the hardware crate.
pub fn generate_core(cfg: &hdl::CoreConfig) -> Result<GeneratedCore, FlowError> {
    hdl::generate_core(cfg).map_err(|e| FlowError::Invalid(e.to_string()))
}

#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error("unknown {what} `{given}`; known: {allowed}")]
    UnknownName {
        what: &'static str,
        given: String,
        allowed: String,
    },
    #[error("`{tool}` was not found on PATH; install it: {hint}")]
    MissingTool {
        tool: &'static str,
        hint: &'static str,
    },
    #[error("{tool} failed (exit status {status}); full log: {}\n--- last lines ---\n{tail}", log.display())]
    ToolFailed {
        tool: &'static str,
        status: String,
        log: PathBuf,
        tail: String,
    },
    #[error("the design does not fit the {part}: {detail}")]
    DoesNotFit { part: String, detail: String },
    #[error("timing not met: {detail}")]
    TimingNotMet { detail: String },
    #[error("invalid option: {0}")]
    Invalid(String),
    /// Input that is not what it must be (a bitstream, an image), said in full.
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Io(String),
}
