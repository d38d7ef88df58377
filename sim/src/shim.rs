//! The C++ shim compiled into every Verilated model: a C ABI over the model.
//!
//! The port table is generated from the parsed Verilog ports, so the shim does
//! not depend on the names of the files Verilator writes, only on the model
//! class it is told to call (`--prefix Vtop`) and on Verilator's documented
//! public port members. Values cross the boundary as little-endian u32 words;
//! each port is stored in Verilator as 1, 2, 4 or 8 bytes or as an array of
//! 32-bit words, all of which a byte copy of the right length fills on a
//! little-endian host.
//!
//! Clocking convention (shared by every entry point): one cycle is
//! {clock = 0, inputs applied, eval, sample outputs, trace at 10c;
//!  clock = 1, eval, trace at 10c+5}. Outputs sampled in cycle c are therefore
//! the values the rising edge at the end of cycle c sees.
//!
//! `bsim_stream` also drives a list of "side" inputs from one packed 64-bit word
//! per cycle and records a list of side outputs into one packed word per cycle
//! (each port at its own shift), so that every port of a core can be driven
//! and compared in every cycle at the streaming path's speed.
//!
//! The hot paths (`bsim_stream`, `bsim_vectors`) loop in C++ over a whole buffer
//! of cycles, so the per-cycle cost is two `eval()` calls and a few byte copies,
//! with no call across the FFI boundary per cycle or per signal.

use crate::ports::{Direction, Port};

/// Bumped whenever the generated C++ or its ABI changes; part of the cache key.
pub const SHIM_VERSION: u32 = 8;

/// The shim's C++, with three places the port list fills in: `@SHIM_VERSION@`,
/// `@PORT_TABLE@` (one `PortRef` per port) and `@PORT_COUNT@`.
const SHIM_TEMPLATE: &str = include_str!("shim.cpp");

/// The C++ source of the shim for a model with these ports.
pub fn shim_source(ports: &[Port]) -> String {
    let mut table = String::new();
    for (i, p) in ports.iter().enumerate() {
        let bytes = match p.width {
            0..=8 => 1,
            9..=16 => 2,
            17..=32 => 4,
            33..=64 => 8,
            w => 4 * w.div_ceil(32),
        };
        let dir = match p.direction {
            Direction::Input => 0,
            Direction::Output => 1,
            Direction::Inout => 2,
        };
        table.push_str(&format!(
            "    s->ports[{i}] = PortRef{{port_ptr(s->top->{name}), {bytes}u, {words}u, {dir}u}};\n",
            name = p.name,
            words = p.words()
        ));
    }
    SHIM_TEMPLATE
        .replace("@SHIM_VERSION@", &SHIM_VERSION.to_string())
        .replace("@PORT_TABLE@", &table)
        .replace("@PORT_COUNT@", &ports.len().to_string())
}
