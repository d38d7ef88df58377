//! `bloom_axis`: the core with the interfaces of the field, AXI4-Stream for
//! requests and responses and AXI4-Lite for control and status, generated
//! from the same configuration as the core and around the same core Verilog.
//!
//! - [`interface`]: its ports, declared once as port bundles, and their table;
//! - [`wrapper`]: the Rust-HDL block, which wires its parts, each a block of its
//!   own file ([`resets`], [`request_path`], [`drop_ring`], [`response_path`],
//!   [`stream_counters`], [`lite_write`], [`bit_access`], [`lite_read`] and
//!   [`read_select`]; [`pair_fifo`], [`event_counter`], [`zero_extend`] are their
//!   parts); each file's header says what it does and its latency;
//! - [`regmap`]: the register map, generated from ip/rdl/bloom_axis.rdl
//!   (SystemRDL), with the types of [`regs`];
//! - [`generate_axi`]: the Verilog, `bloom_axis.v` (modules `bloom_axis` and
//!   `bloom_axis_core`, the latter a pass-through holding `bloom_core`) to be
//!   compiled with the core's `bloom_core.v`.

pub mod amount_counter;
pub mod bit_access;
pub mod drop_ring;
pub mod event_counter;
pub mod interface;
pub mod lanes;
pub mod lanes_regs;
pub mod lite_read;
pub mod lite_write;
pub mod pair_fifo;
pub mod read_select;
pub mod regmap;
pub mod regs;
pub mod request_path;
pub mod resets;
pub mod response_path;
pub mod stream_counters;
pub mod wrapper;
pub mod zero_extend;

use rust_hdl::prelude::*;

use crate::verilog::flat_bundles;
use crate::verilog::text::{keep_hierarchy_of, rename_modules, FlatBundle};
use crate::{CoreConfig, GeneratedCore, HdlError};

pub use interface::{axi_groups, axi_ports, AXIL_ADDR_BITS, AXIL_DATA_BITS, RESPONSE_DATA_BITS};
pub use wrapper::{
    fixed_words, fixed_words_of, stream_timing, BloomAxis, StreamTiming, FIXED_WORDS,
};

/// Top module name of the wrapper.
pub const AXI_TOP: &str = "bloom_axis";

/// The wrapper and the core it holds, generated for one configuration.
#[derive(Clone, Debug)]
pub struct GeneratedAxi {
    /// The core, exactly as `bloom verilog` writes it (`bloom_core.v`).
    pub core: GeneratedCore,
    /// The wrapper alone (`bloom_axis.v`): modules `bloom_axis` and `bloom_axis_core`.
    pub verilog: String,
    pub top: String,
    /// The wrapper's timing on its streams (the core's plus its two FIFOs).
    pub timing: StreamTiming,
}

impl GeneratedAxi {
    /// Wrapper and core in one self-contained text.
    pub fn full_verilog(&self) -> String {
        format!("{}\n{}", self.verilog, self.core.verilog)
    }
}

/// The wrapper's signals printed flat: its own bundles (`s_axis$tvalid` is
/// `s_axis_tvalid`) and the core's inside the box (`core$io$req$valid` is `core$req_valid`).
pub(crate) fn axi_flat_bundles() -> Vec<FlatBundle> {
    let mut b: Vec<FlatBundle> = axi_groups()
        .into_iter()
        .map(|g| (g.path, g.prefix, g.fields))
        .collect();
    b.extend(flat_bundles());
    b
}

fn wrapper_verilog<const W: usize>(cfg: &CoreConfig, core_top: &str) -> Result<String, HdlError> {
    let mut uut = BloomAxis::<W>::new(cfg, core_top);
    uut.connect_all();
    check_all(&uut)
        .map_err(|e| HdlError::Generate(format!("bloom_axis failed rust-hdl's checks: {e:?}")))?;
    let mut defines = ModuleDefines::default();
    uut.accept("top", &mut defines);
    Ok(keep_for_synthesis(&rename_modules(
        &defines.defines(),
        AXI_TOP,
        &axi_flat_bundles(),
    )?))
}

/// `verilog` (the wrapper's) with the modules of [`wrapper::KEPT_MODULES`] marked
/// `(* keep_hierarchy *)`, which Yosys honours and simulators ignore.
fn keep_for_synthesis(verilog: &str) -> String {
    keep_hierarchy_of(verilog, |name| {
        wrapper::KEPT_MODULES
            .iter()
            .any(|m| name == format!("{AXI_TOP}_{m}"))
    })
}

/// Generates the core for `cfg` and the AXI wrapper around it.
pub fn generate_axi(cfg: &CoreConfig) -> Result<GeneratedAxi, HdlError> {
    let core = crate::generate_core(cfg)?;
    let verilog = match cfg.key_bits() {
        32 => wrapper_verilog::<32>(cfg, &core.top)?,
        64 => wrapper_verilog::<64>(cfg, &core.top)?,
        128 => wrapper_verilog::<128>(cfg, &core.top)?,
        other => unreachable!("generate_core validated key_bits {other}"),
    };
    let timing = stream_timing(&cfg.params);
    Ok(GeneratedAxi {
        core,
        verilog,
        top: AXI_TOP.to_string(),
        timing,
    })
}
