//! The self-checking plain-Verilog testbench of `bloom_lanes_axis` that reads
//! the vector files of [`crate::lane_vectors`] (ip/verilog/tb_bloom_lanes_axis.v,
//! with L, the configuration it refuses other vectors by, and the array sizes
//! filled in here).

use crate::lane_vectors::{LaneVectors, LANES_FORMAT, LANES_MAGIC};
use crate::testbench::capacity;
use crate::vectors::hash_code;

/// Top module of the testbench.
pub const LANES_TB_TOP: &str = "tb_bloom_lanes_axis";
/// Its file name.
pub const LANES_TB_FILE: &str = "tb_bloom_lanes_axis.v";

const TEMPLATE: &str = include_str!("../verilog/tb_bloom_lanes_axis.v");

/// The testbench for `bloom_lanes_axis` of the vector set's configuration,
/// with room for the set.
pub fn lanes_testbench(v: &LaneVectors) -> String {
    let p = &v.params;
    TEMPLATE
        .replace("@LANES@", &v.lanes.to_string())
        .replace("@KEY_BITS@", &p.key_bits.to_string())
        .replace("@K@", &p.k.to_string())
        .replace("@BANK_BITS@", &p.bank_bits.to_string())
        .replace("@HASH@", &hash_code(p).to_string())
        .replace("@SEED_LO@", &format!("{:08X}", p.seed as u32))
        .replace("@SEED_HI@", &format!("{:08X}", (p.seed >> 32) as u32))
        .replace("@MAX_STIM@", &capacity(v.stim_lines()).to_string())
        .replace("@MAX_EXPECT@", &capacity(v.expect_lines()).to_string())
        .replace("@MAGIC@", &format!("{LANES_MAGIC:08X}"))
        .replace("@FORMAT@", &LANES_FORMAT.to_string())
}
