//! The open-source FPGA flow for the bloom core: board descriptions, board
//! tops (with the UART host bridge or a test pattern) and the Fmax harness, constraint files, PLL settings, and the steps
//! Yosys -> nextpnr -> packer -> programmer, each keeping its tool's full log,
//! with the report (routed Fmax, timing, resources, tool versions).
//!
//! The core's Verilog comes in as a [`CoreNetlist`] (made by
//! `hdl::generate_core`, see [`CoreNetlist::generate`]); the rest of the flow
//! only needs its Verilog, top name and size.

pub mod board;
pub mod bridge;
pub mod build;
pub mod constraints;
pub mod fmax;
pub mod harness;
pub mod nextpnr;
pub mod pll;
pub mod steps;
pub mod tools;
pub mod top;

use std::path::PathBuf;

/// The core as the flow consumes it: self-contained Verilog whose top module
/// is `top` (ports as agreed in the team brief), and its configuration.
#[derive(Clone, Debug)]
pub struct CoreNetlist {
    pub verilog: String,
    pub top: String,
    pub k: u32,
    pub bank_bits: u32,
    pub key_bits: u32,
    pub config_json: serde_json::Value,
}

impl CoreNetlist {
    /// Generates the core's Verilog for `cfg` with the hardware crate.
    pub fn generate(cfg: &hdl::CoreConfig) -> Result<CoreNetlist, FlowError> {
        let g = hdl::generate_core(cfg).map_err(|e| FlowError::Invalid(e.to_string()))?;
        Ok(CoreNetlist {
            verilog: g.verilog,
            top: g.top,
            k: cfg.k as u32,
            bank_bits: cfg.bank_bits as u32,
            key_bits: cfg.key_bits as u32,
            config_json: g.config_json,
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error("unknown {what} `{given}`; known: {allowed}")]
    UnknownName { what: &'static str, given: String, allowed: String },
    #[error("`{tool}` was not found on PATH; install it: {hint}")]
    MissingTool { tool: &'static str, hint: &'static str },
    #[error("{tool} failed (exit status {status}); full log: {}\n--- last lines ---\n{tail}", log.display())]
    ToolFailed { tool: &'static str, status: String, log: PathBuf, tail: String },
    #[error("the design does not fit the {part}: {detail}")]
    DoesNotFit { part: String, detail: String },
    #[error("timing not met: {detail}")]
    TimingNotMet { detail: String },
    #[error("invalid option: {0}")]
    Invalid(String),
    #[error("{0}")]
    Io(String),
}
