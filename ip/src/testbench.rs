//! The self-checking plain-Verilog testbench of `bloom_axis` that reads the
//! vector files of [`crate::vectors`] (ip/verilog/tb_bloom_axis.v, with the
//! register addresses, field positions and array sizes filled in here from the
//! register map and the vector set).

use hdl::axi::regmap as map;

use crate::vectors::{Vectors, CONFIG_WORDS, FORMAT, MAGIC, STEP_BITS};

/// Top module of the testbench.
pub const TB_TOP: &str = "tb_bloom_axis";
/// Its file name.
pub const TB_FILE: &str = "tb_bloom_axis.v";

const TEMPLATE: &str = include_str!("../verilog/tb_bloom_axis.v");

/// Array sizes of a testbench: the vector set's, rounded up to a power of
/// two and at least 4096 (override with the MAX_STEPS and MAX_RESPONSES parameters).
pub fn capacity(n: usize) -> usize {
    (n + 1).next_power_of_two().max(4096)
}

/// A register's fields as the register map's table writes them:
/// `name [bit]` or `name [msb:lsb]`, comma-separated.
pub(crate) fn field_list(fields: &[hdl::axi::regs::FieldDef]) -> String {
    fields
        .iter()
        .map(|f| {
            if f.width == 1 {
                format!("{} [{}]", f.name, f.lsb)
            } else {
                format!("{} [{}:{}]", f.name, f.lsb + f.width - 1, f.lsb)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The testbench for a core with `key_bits`-bit keys and room for `vectors`.
pub fn testbench(key_bits: u32, vectors: &Vectors) -> String {
    let fields = field_list(map::CONFIG.fields);
    TEMPLATE
        .replace("@KEY_BITS@", &key_bits.to_string())
        .replace("@MAX_STEPS@", &capacity(vectors.steps.len()).to_string())
        .replace(
            "@MAX_RESPONSES@",
            &capacity(vectors.responses.len()).to_string(),
        )
        .replace("@MAGIC@", &format!("{MAGIC:08X}"))
        .replace("@FORMAT@", &FORMAT.to_string())
        .replace("@STEP_BITS@", &STEP_BITS.to_string())
        .replace("@ADDR_CONFIG@", &format!("{:02X}", map::CONFIG.offset))
        .replace("@ADDR_SEED_LO@", &format!("{:02X}", map::SEED_LO.offset))
        .replace("@ADDR_SEED_HI@", &format!("{:02X}", map::SEED_HI.offset))
        .replace("@CONFIG_FIELDS@", &fields)
        .replace("@CONFIG_LAST@", &(CONFIG_WORDS - 1).to_string())
}
