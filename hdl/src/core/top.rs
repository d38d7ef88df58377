//! `bloom_core`: the partitioned Bloom filter core (top level).
//!
//! Its ports are the bundles of `ports.rs`; what they mean, the core's timing,
//! its reset and clear behaviour are docs/core.md, the page an integrator
//! reads first (its port table is generated from `ports.rs`, its timing
//! diagrams from a co-simulation of this core). [`crate::Timing`] carries the
//! timing as a value.
//!
//! Pipeline of an operation accepted in cycle 0 (one slot per cycle, never stalls):
//!   c1 key register; hash units' chunk registers load
//!   c2 addresses formed (XOR of chunks, or the readback address) -> address registers
//!   c3 every bank's RAM read, its address straight from the address register; its
//!      address compared with the slot ahead's (forwarding); write address/enable of c4
//!      registered
//!   c4 inserts write 1 to every bank (write port); forwarding flag = compare & insert
//!   c5 RAM output register; bit = stored | forwarded; hit = AND over banks, registered;
//!      "bit was 0" of inserts registered
//!   c6 response pushed into the FIFO; fill counters count
//!   c7 resp_valid
//! Same-address read/write: see core/partition.rs (forwarded, never left to the RAM).
//!
//! Why latency 7 and not 6: the hit is registered at the end of c5 and pushed from that
//! register, so between a RAM output register and the next flip-flop there is only the
//! AND over the banks' bits. Together with flip-flop-driven req_ready, RAM write
//! enable/address and fill-counter controls, and two-level hash trees, this is what
//! lets the iCE40 parts run near their block-RAM limit.
//!
//! Rule for every register of the core: at most two LUT4 levels after flip-flops or the
//! request inputs (carry chains aside). ABC maps for the deepest path of the whole design
//! and then trades depth for area everywhere else, so a single three-level path (the
//! admission, the forwarding compare) let it rebuild the hash trees three and four
//! levels deep: that, not the admission itself, was the UP5K critical path.

use rust_hdl::prelude::*;

use crate::core::control::Control;
use crate::core::glue;
use crate::core::partition::Partition;
use crate::ports::{Clocking, CorePorts, Scrub};

#[derive(LogicBlock)]
pub struct BloomCore<const W: usize> {
    pub sys: Clocking<W>,
    pub io: CorePorts<W>,
    pub scrub: Scrub<W>,
    control: Control<W>,
    parts: Vec<Partition<W>>,
}

impl<const W: usize> BloomCore<W> {
    pub fn new(control: Control<W>, parts: Vec<Partition<W>>) -> Self {
        BloomCore {
            sys: Default::default(),
            io: Default::default(),
            scrub: Default::default(),
            control,
            parts,
        }
    }

    /// The simulated contents of bank `p` (for tests).
    pub fn bank_contents(&self, p: usize) -> &[bool] {
        self.parts[p].bank_contents()
    }

    pub fn k(&self) -> usize {
        self.parts.len()
    }
}

// The glue of every variant (glue.rs: ports, control, banks), then what is the plain
// core's own: an AND over the banks and two bank multiplexers. Like the glue, written
// twice: `update` for rust-hdl's simulator and `hdl` for the Verilog, each a function of
// its own so that lane 0 of `bloom_lanes` (hdl/src/lanes/lane0.rs) is this core and its
// tap, not a copy of it.
impl<const W: usize> Logic for BloomCore<W> {
    fn update(&mut self) {
        update_plain(
            &self.sys,
            &mut self.io,
            &mut self.scrub,
            &mut self.control,
            &mut self.parts,
        );
    }

    fn connect(&mut self) {
        connect_plain(
            &mut self.io,
            &mut self.scrub,
            &mut self.control,
            &mut self.parts,
        );
    }

    fn hdl(&self) -> Verilog {
        let k = self.parts.len();
        // What the control and the partitions show the lanes' query lanes, unread here.
        let mut tap: Vec<String> = crate::core::control::LaneTap::<W>::FIELDS
            .iter()
            .map(|f| format!("control$lane_tap${}", f.name))
            .collect();
        tap.extend((0..k).map(|p| format!("parts${p}$write_addr_next")));
        Verilog::Custom(format!(
            "{}/* verilator lint_off UNUSED */\nwire unused_lane_tap = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
            hdl_plain::<W>(k, ""),
            tap.join(", ")
        ))
    }
}

/// `update` of the plain core: the glue, the AND over the banks' bits, the readback's
/// bank multiplexer and the fill counter's.
pub(crate) fn update_plain<const W: usize>(
    sys: &Clocking<W>,
    io: &mut CorePorts<W>,
    scrub: &mut Scrub<W>,
    control: &mut Control<W>,
    parts: &mut [Partition<W>],
) {
    glue::drive(sys, io, scrub, control, parts);
    control.all_bits5.next = parts.iter().all(|p| p.bit5.val());
    let select = control.rb_select5.val();
    control.rb_bit5.next = parts
        .iter()
        .enumerate()
        .any(|(p, part)| select.get_bit(p) & part.bit5.val());
    io.fill.count.next = parts
        .get(io.fill.bank.val().index())
        .map_or(Bits::<17>::default(), |p| {
            Bits::<17>::from((p.fill_high.val().to_u64() << 8) | p.fill_low.val().to_u64())
        });
}

/// `connect` half of [`update_plain`].
pub(crate) fn connect_plain<const W: usize>(
    io: &mut CorePorts<W>,
    scrub: &mut Scrub<W>,
    control: &mut Control<W>,
    parts: &mut [Partition<W>],
) {
    glue::connect(io, scrub, control, parts);
    control.all_bits5.connect();
    control.rb_bit5.connect();
    io.fill.count.connect();
}

/// The Verilog of [`update_plain`] for k banks, with `more` (lines of the same
/// `always @(*)` block) at its end.
pub(crate) fn hdl_plain<const W: usize>(k: usize, more: &str) -> String {
    let mut v = String::from("always @(*) begin\n");
    // Inputs into the control first, then its outputs.
    let (clocking, inputs, outputs) = glue::control_hdl::<W>();
    v += &clocking;
    v += &inputs;
    v += &outputs;
    for p in 0..k {
        v += &glue::bank_hdl::<W>(p);
    }
    v += &glue::scrub_mismatch_hdl(k);
    let bits: Vec<String> = (0..k).map(|p| format!("parts${p}$bit5")).collect();
    v += &format!("    control$all_bits5 = {};\n", bits.join(" & "));
    let selected: Vec<String> = (0..k)
        .map(|p| format!("(control$rb_select5[{p}] & parts${p}$bit5)"))
        .collect();
    v += &format!("    control$rb_bit5 = {};\n", selected.join(" | "));
    // Each partition's fill counter comes in two halves.
    let mut kept = String::new();
    for p in 0..k {
        kept +=
            &format!("wire [16:0] fill_of_{p} = {{parts${p}$fill_high, parts${p}$fill_low}};\n");
    }
    // fill_count is combinational in fill_bank (an input). Up to 4 banks it is spelled
    // as two LUT4 levels, held apart by kept wires: a 2:1 mux per bank pair, then the
    // pair mux gated by "fill_bank's high bits are 0" (ABC made three levels).
    if k <= 4 {
        let pairs = k.div_ceil(2);
        for i in 0..pairs {
            let odd = if 2 * i + 1 < k {
                format!("fill_of_{}", 2 * i + 1)
            } else {
                "17'd0".to_string()
            };
            kept += &format!(
                "(* keep *) wire [16:0] fill_pair_{i} = io$fill$bank[0] ? {odd} : fill_of_{};\n",
                2 * i
            );
        }
        let (low, chosen) = if pairs == 1 {
            ("io$fill$bank[3:1] == 3'd0", "fill_pair_0".to_string())
        } else {
            (
                "io$fill$bank[3:2] == 2'd0",
                "(io$fill$bank[1] ? fill_pair_1 : fill_pair_0)".to_string(),
            )
        };
        kept += &format!("(* keep *) wire fill_bank_low = ({low});\n");
        v += &format!("    io$fill$count = {{17{{fill_bank_low}}}} & {chosen};\n");
    } else {
        v += "    case (io$fill$bank)\n";
        for p in 0..k {
            v += &format!("        4'd{p}: io$fill$count = fill_of_{p};\n");
        }
        if k < 16 {
            v += "        default: io$fill$count = 17'd0;\n";
        }
        v += "    endcase\n";
    }
    v += more;
    v += "end\n";
    // Declared ahead of the block that reads them.
    let mut v = kept + &v;
    if k < 16 {
        // Select bits of banks that do not exist are never set; Verilator's idiom for
        // deliberately unread bits.
        v += &format!(
            "/* verilator lint_off UNUSED */\nwire unused_rb_select = &{{1'b0, control$rb_select5[15:{k}], 1'b0}};\n/* verilator lint_on UNUSED */\n"
        );
    }
    v
}
