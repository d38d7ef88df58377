//! The partitioned Bloom filter core in Rust-HDL (docs/contract.md), and its
//! Verilog generator. Everything here is derived from the contract; nothing comes from
//! the golden model (a dev-dependency for tests only).
//!
//! Blocks, one file each: `hash_unit` (H3 / CRC as one GF(2) affine map), `ram` (the only
//! technology-specific block; `counter_ram` is its counting-filter counterpart, 2^b x c),
//! `partition` (hash + bank + forwarding + fill counter), and for counter_bits > 1
//! `counting_partition` (hash + counter bank + read-modify-write + forwarding + fill and
//! saturated counts), `count_ops` (the counting flags beside the control) and
//! `counting_core` (the counting top level),
//! `control` (admission, stage registers, clear sweep, readback), `response_fifo`, and
//! `core` (top level, its ports and exact timing).

pub mod axi;
pub mod bridge;
pub mod config;
pub mod control;
pub mod core;
pub mod count_ops;
pub mod counter_ram;
pub mod counter_step;
pub mod counting_core;
pub mod counting_partition;
pub mod crc;
pub mod hash_matrix;
pub mod hash_unit;
pub mod image;
pub mod kept_or;
pub mod lanes;
pub mod lanes_axis;
pub mod lint;
pub mod partition;
pub mod ports;
pub mod present_copy;
pub mod ram;
pub mod response_fifo;
pub mod sim;
pub mod splitmix;
pub mod timing;
pub mod verilog;

pub use crate::config::{CoreConfig, TestSwitches};
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
