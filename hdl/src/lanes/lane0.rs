//! Lane 0 of `bloom_lanes` (module `bloom_lanes_core`): the plain core (core/top.rs) and
//! its tap, the ports through which the query lanes follow it.
//!
//! Lane 0 is the whole core: admission, every write (inserts, clears, bit writes), the
//! clear sweep, the recount after reset, the fill counters and the readback port. The
//! query lanes (query.rs) only read; what they need of lane 0 is its banks' writes, one
//! cycle ahead, so that copies of its write registers (writes.rs) write their replica
//! banks in the very cycle lane 0 writes its own, and each of its responses as it is
//! registered in c6 (the lanes' response path, responses.rs, takes lane 0's answer there
//! beside the query lanes'). The tap is those signals as ports:
//!
//! - `tap_write_next` (bit p): bank p's RAM write enable of the next cycle; with
//!   `tap_wdata_next`, the bit written, and `tap_addr_next` (bank p's address at
//!   [16p+15:16p]), what lane 0's c4 write registers load at the end of this cycle;
//! - `tap_valid6`, `tap_hit6`: c6 holds a response, and its hit (0 for a clear).
//!
//! Latency and memory: the core's (docs/core.md); the tap adds no register. Module
//! names: `bloom_lanes_core`, every other `bloom_lanes_core_*` (hash units
//! `bloom_lanes_core_parts_{p}_hash`, banks `bloom_lanes_core_parts_{p}_ram`, which the
//! query lanes instantiate too, so that they hash as lane 0 does and their replica banks
//! start with lane 0's contents).

use rust_hdl::prelude::*;

use crate::core::control::Control;
use crate::core::partition::Partition;
use crate::core::top::{connect_plain, hdl_plain, update_plain};
use crate::counting::partition::CountingPartition;
use crate::counting::top::{connect_counting, hdl_counting, update_counting};
use crate::counting::CountingCore;
use crate::hash::HashUnit;
use crate::ports::{Clocking, CorePorts, Scrub};
use crate::verilog::CoreVariant;
use crate::{CoreConfig, HdlError};

/// Module name of lane 0.
pub const LANE0_TOP: &str = "bloom_lanes_core";

crate::bundle! {
    /// Lane 0's tap: its banks' writes one cycle ahead, and its responses in c6.
    WriteTap / WriteTapSink {
        /// Bank p's RAM write enable of the next cycle (c4), bit p.
        write_next: Out Bits<16>,
        /// The bit those writes write, bit p for bank p (a plain core writes one bit to
        /// every bank; a counting core, whether each bank's counter written is non-zero).
        wdata_next: Out Bits<16>,
        /// Bank p's RAM write address of the next cycle at [16p+15:16p] (0 above k).
        addr_next: Out Bits<256>,
        /// c6 holds a response (lane 0 pushes it into its response FIFO at the end of c6).
        valid6: Out bool,
        /// Its hit: every bank's bit was 1, and the operation is not a clear.
        hit6: Out bool,
    }
}

/// The plain core with its tap.
#[derive(LogicBlock)]
pub struct LaneCore<const W: usize> {
    pub sys: Clocking<W>,
    pub io: CorePorts<W>,
    /// The core's scrub ports (`bloom_lanes` requests none: its replicas are not scrubbed).
    pub scrub: Scrub<W>,
    pub tap: WriteTap<W>,
    control: Control<W>,
    parts: Vec<Partition<W>>,
}

impl<const W: usize> Logic for LaneCore<W> {
    fn update(&mut self) {
        update_plain(
            &self.sys,
            &mut self.io,
            &mut self.scrub,
            &mut self.control,
            &mut self.parts,
        );
        let t = &self.control.lane_tap;
        self.tap.write_next.next = t.write_next.val();
        self.tap.wdata_next.next = if t.wdata_next.val() {
            Bits::<16>::from(0xffffu64)
        } else {
            Bits::<16>::default()
        };
        self.tap.valid6.next = t.valid6.val();
        self.tap.hit6.next = t.hit6.val();
        let mut addr = Bits::<256>::default();
        for (p, part) in self.parts.iter().enumerate() {
            addr.set_bits::<16>(16 * p, part.write_addr_next.val());
        }
        self.tap.addr_next.next = addr;
    }

    fn connect(&mut self) {
        connect_plain(
            &mut self.io,
            &mut self.scrub,
            &mut self.control,
            &mut self.parts,
        );
        connect_tap(&mut self.tap);
    }

    fn hdl(&self) -> Verilog {
        let k = self.parts.len();
        let mut more = String::new();
        for f in WriteTap::<W>::FIELDS
            .iter()
            .filter(|f| f.name != "addr_next" && f.name != "wdata_next")
        {
            more += &format!("    tap${0} = control$lane_tap${0};\n", f.name);
        }
        more += "    tap$wdata_next = {16{control$lane_tap$wdata_next}};\n";
        more += &tap_addresses(k, "write_addr_next");
        Verilog::Custom(hdl_plain::<W>(k, &more))
    }
}

/// Every signal of the tap is driven by its block.
fn connect_tap<const W: usize>(tap: &mut WriteTap<W>) {
    tap.write_next.connect();
    tap.wdata_next.connect();
    tap.addr_next.connect();
    tap.valid6.connect();
    tap.hit6.connect();
}

/// `tap$addr_next`: bank p's `parts$p${name}` at [16p+15:16p], 0 above k.
fn tap_addresses(k: usize, name: &str) -> String {
    let mut addrs: Vec<String> = (0..k).rev().map(|p| format!("parts${p}${name}")).collect();
    if k < 16 {
        addrs.insert(0, format!("{}'d0", 16 * (16 - k)));
    }
    format!("    tap$addr_next = {{{}}};\n", addrs.join(", "))
}

/// A bit per bank of `parts$p${name}`, bank p at bit p, 0 above k.
fn tap_bits(k: usize, name: &str) -> String {
    let mut bits: Vec<String> = (0..k).rev().map(|p| format!("parts${p}${name}")).collect();
    if k < 16 {
        bits.insert(0, format!("{}'d0", 16 - k));
    }
    format!("{{{}}}", bits.join(", "))
}

impl<const W: usize> CoreVariant<W> for LaneCore<W> {
    type Bank = Vec<bool>;

    fn admits(cfg: &CoreConfig) -> Result<(), HdlError> {
        <crate::BloomCore<W> as CoreVariant<W>>::admits(cfg)
    }

    fn read_image(dir: &std::path::Path, cfg: &CoreConfig) -> Result<Vec<Vec<bool>>, HdlError> {
        <crate::BloomCore<W> as CoreVariant<W>>::read_image(dir, cfg)
    }

    fn assemble(
        cfg: &CoreConfig,
        bank: impl FnMut(usize) -> (HashUnit<W>, Option<Vec<bool>>),
    ) -> Self {
        LaneCore {
            sys: Default::default(),
            io: Default::default(),
            scrub: Default::default(),
            tap: Default::default(),
            // bloom_lanes requests no scrub: its replicas would not be scrubbed.
            control: Control::new(
                cfg.bank_bits(),
                0,
                false,
                None,
                crate::hash::feistel::FeistelNetwork::of(cfg),
            ),
            parts: crate::verilog::plain_partitions(
                &CoreConfig {
                    scrub: false,
                    ..cfg.clone()
                },
                bank,
            ),
        }
    }
}

/// The counting core (counting/top.rs) with its tap: lane 0 of a counting filter's lanes.
/// Its banks' writes are the write-back of c7 (counting/write_back.rs), so the tap gives
/// what those registers load: each bank's enable, address, and whether the counter it
/// writes is non-zero, the only thing the query lanes' 1-bit replicas hold.
#[derive(LogicBlock)]
pub struct LaneCountingCore<const W: usize> {
    pub sys: Clocking<W>,
    pub io: CorePorts<W>,
    pub scrub: Scrub<W>,
    pub counter: crate::ports::Counter<W>,
    pub tap: WriteTap<W>,
    control: Control<W>,
    ops_line: crate::core::request_line::RequestLine,
    ops: crate::counting::ops::CountOps<W>,
    parts: Vec<CountingPartition<W>>,
}

impl<const W: usize> Logic for LaneCountingCore<W> {
    fn update(&mut self) {
        update_counting(
            &self.sys,
            &mut self.io,
            &mut self.scrub,
            &mut self.counter,
            &mut self.control,
            &mut self.ops_line,
            &mut self.ops,
            &mut self.parts,
        );
        let t = &self.control.lane_tap;
        self.tap.valid6.next = t.valid6.val();
        self.tap.hit6.next = t.hit6.val();
        let (mut write, mut data, mut addr) = (
            Bits::<16>::default(),
            Bits::<16>::default(),
            Bits::<256>::default(),
        );
        for (p, part) in self.parts.iter().enumerate() {
            write = write.replace_bit(p, part.replica_write_next.val());
            data = data.replace_bit(p, part.replica_nz_next.val());
            addr.set_bits::<16>(16 * p, part.replica_addr_next.val());
        }
        self.tap.write_next.next = write;
        self.tap.wdata_next.next = data;
        self.tap.addr_next.next = addr;
    }

    fn connect(&mut self) {
        connect_counting(
            &mut self.io,
            &mut self.scrub,
            &mut self.counter,
            &mut self.control,
            &mut self.ops_line,
            &mut self.ops,
            &mut self.parts,
        );
        connect_tap(&mut self.tap);
    }

    fn hdl(&self) -> Verilog {
        let k = self.parts.len();
        let mut more = String::from("always @(*) begin\n");
        more +=
            "    tap$valid6 = control$lane_tap$valid6;\n    tap$hit6 = control$lane_tap$hit6;\n";
        more += &format!(
            "    tap$write_next = {};\n",
            tap_bits(k, "replica_write_next")
        );
        more += &format!("    tap$wdata_next = {};\n", tap_bits(k, "replica_nz_next"));
        more += &tap_addresses(k, "replica_addr_next");
        more += "end\n";
        // The plain core's view of its writes (c4), which a counting core does not use.
        more += "/* verilator lint_off UNUSED */\nwire unused_plain_tap = &{1'b0, control$lane_tap$write_next, control$lane_tap$wdata_next, 1'b0};\n/* verilator lint_on UNUSED */\n";
        Verilog::Custom(hdl_counting::<W>(k, Some(&more)))
    }
}

impl<const W: usize> CoreVariant<W> for LaneCountingCore<W> {
    type Bank = Vec<u8>;

    fn admits(cfg: &CoreConfig) -> Result<(), HdlError> {
        <CountingCore<W> as CoreVariant<W>>::admits(cfg)
    }

    fn read_image(dir: &std::path::Path, cfg: &CoreConfig) -> Result<Vec<Vec<u8>>, HdlError> {
        <CountingCore<W> as CoreVariant<W>>::read_image(dir, cfg)
    }

    fn assemble(
        cfg: &CoreConfig,
        bank: impl FnMut(usize) -> (HashUnit<W>, Option<Vec<u8>>),
    ) -> Self {
        // bloom_lanes requests no scrub: its replicas would not be scrubbed.
        let core = <CountingCore<W> as CoreVariant<W>>::assemble(
            &CoreConfig {
                scrub: false,
                ..cfg.clone()
            },
            bank,
        );
        LaneCountingCore {
            sys: core.sys,
            io: core.io,
            scrub: core.scrub,
            counter: core.counter,
            tap: Default::default(),
            control: core.control,
            ops_line: core.ops_line,
            ops: core.ops,
            parts: core.parts,
        }
    }

    fn mark_for_synthesis(verilog: String) -> String {
        crate::verilog::keep_counting_for_synthesis(&verilog)
    }
}

/// The Verilog of lane 0 for `cfg`: `bloom_lanes_core` and its modules. A plain core's are
/// none kept whole in synthesis (the lanes' flattened design shares their logic); a
/// counting core's keep the marks of `bloom_core` (verilog/mod.rs,
/// `keep_counting_for_synthesis`), which hold its read-modify-write loop together.
pub fn lane0_verilog(cfg: &CoreConfig) -> Result<String, HdlError> {
    use crate::verilog::verilog_of;
    cfg.validate()?;
    let counting = cfg.params.counter_bits > 1;
    let raw = match (cfg.key_bits(), counting) {
        (32, false) => verilog_of::<32, LaneCore<32>>(cfg)?,
        (64, false) => verilog_of::<64, LaneCore<64>>(cfg)?,
        (128, false) => verilog_of::<128, LaneCore<128>>(cfg)?,
        (32, true) => verilog_of::<32, LaneCountingCore<32>>(cfg)?,
        (64, true) => verilog_of::<64, LaneCountingCore<64>>(cfg)?,
        (128, true) => verilog_of::<128, LaneCountingCore<128>>(cfg)?,
        (other, _) => unreachable!("validate() admits key_bits {other}"),
    };
    let mut bundles = crate::verilog::flat_bundles();
    bundles.push(("tap", "tap", WriteTap::<1>::FIELDS));
    crate::verilog::text::rename_modules(&raw, LANE0_TOP, &bundles)
}
