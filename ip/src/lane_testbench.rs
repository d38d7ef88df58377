//! The self-checking plain-Verilog testbench of `bloom_lanes_axis` that reads
//! the vector files of [`crate::lane_vectors`] (ip/verilog/tb_bloom_lanes_axis.v,
//! with L, the configuration it refuses other vectors by, and the array sizes
//! filled in here).

use hdl::axi::lanes::lanes_axis_ports;
use hdl::ports::{CorePort, Direction};

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
        .replace("@COUNTER_BITS@", &p.counter_bits.to_string())
        .replace("@MAGIC@", &format!("{LANES_MAGIC:08X}"))
        .replace("@FORMAT@", &LANES_FORMAT.to_string())
        .replace("@SIDE_WIRES@", &side_wires(v))
        .replace("@SIDE_PORTS@", &side_ports(v))
}

/// The ports of `bloom_lanes_axis` beside its two streams (lane 0's, passed
/// through), from its port table.
fn side_ports_of(v: &LaneVectors) -> Vec<CorePort> {
    lanes_axis_ports(&v.params, v.lanes)
        .into_iter()
        .filter(|p| {
            !(p.name == "aclk"
                || p.name == "aresetn"
                || p.name.starts_with("s_axis_")
                || p.name.starts_with("m_axis_"))
        })
        .collect()
}

/// A wire for each side output.
fn side_wires(v: &LaneVectors) -> String {
    side_ports_of(v)
        .iter()
        .filter(|p| p.direction == Direction::Output)
        .map(|p| format!("    wire {}{};\n", p.range(), p.name))
        .collect()
}

/// The instance's connections of the side ports: inputs held at 0, outputs to
/// their wires.
fn side_ports(v: &LaneVectors) -> String {
    side_ports_of(v)
        .iter()
        .map(|p| match p.direction {
            Direction::Input => format!("        .{}({}'d0)", p.name, p.width),
            _ => format!("        .{0}({0})", p.name),
        })
        .collect::<Vec<_>>()
        .join(",\n")
}
