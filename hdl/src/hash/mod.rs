//! The hash families of contract §3, as hardware: each partition's hash unit and
//! what it is built from.
//!
//! - [`unit`]: `HashUnit`, one partition's address from the key (H3 and CRC, one
//!   GF(2) affine map, pipelined once);
//! - [`matrix`]: a partition's affine map, derived from the contract's definitions;
//! - [`crc`]: the CRC algorithms of §3.2, bit-serial (elaboration time only);
//! - [`splitmix`]: SplitMix64, the source of H3's rows and SPN's round keys
//!   (elaboration time only);
//! - [`spn`]: the SPN family's network (§3.3), elaborated and written as Verilog, whole
//!   or as one partition's unit;
//! - [`feistel`]: the Feistel family's network (§3.4), one for the whole core, beside
//!   the control; each partition's unit takes its bits of the network's blocks.

pub mod crc;
pub mod feistel;
pub mod matrix;
pub mod splitmix;
pub mod spn;
pub mod unit;

pub use unit::HashUnit;
