//! The partitioned Bloom filter core in Rust-HDL (docs/contract.md), and its
//! Verilog generator. Everything here is derived from the contract; nothing comes from
//! the golden model (a dev-dependency for tests only).
//!
//! One folder per family of blocks:
//! - [`core`]: the plain core `bloom_core` (control, partitions, banks, response FIFO);
//! - [`counting`]: the counting core (c = 2..8), the plain core's control and ports plus
//!   counting partitions;
//! - [`hash`]: the hash units of contract §3 and what they are derived from;
//! - [`lanes`]: `bloom_lanes`, L operations per clock;
//! - [`axi`]: the AXI faces (`bloom_axis`, `bloom_lanes_axis`) and the register map;
//! - [`bridge`]: the UART host bridge and the board top;
//! - [`verilog`]: elaboration and Verilog generation, the Verilog text passes and lint.
//!
//! Shared by all of them: [`config`] (what a core is generated from), [`ports`] (every
//! interface declared once), [`timing`] (the core's timing as a value) and [`image`] (the
//! preload image reader).

pub mod axi;
pub mod bridge;
pub mod config;
pub mod core;
pub mod counting;
pub mod doc_page;
pub mod hash;
pub mod image;
pub mod lanes;
pub mod ports;
pub mod timing;
pub mod verilog;

pub use crate::config::{CoreConfig, TestSwitches, MAX_SCRUB_EVERY};
pub use crate::core::BloomCore;
pub use crate::timing::{clear_cycles, Timing, LATENCY, READBACK_LATENCY};
pub use crate::verilog::{generate_core, CoreDescription, GeneratedCore};
pub use bloom_params::{CoreParams, HashFamily};

#[derive(Debug, thiserror::Error)]
pub enum HdlError {
    #[error("invalid core configuration: {0}")]
    Config(String),
    #[error("invalid memory image {0}")]
    Image(String),
    #[error("Verilog generation failed: {0}")]
    Generate(String),
}
