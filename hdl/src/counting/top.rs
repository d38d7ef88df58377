//! `bloom_core` for counter_bits c > 1: the counting Bloom filter core (contract §7).
//!
//! The same ports as the plain core (core/top.rs), the same control (core/control.rs: admission,
//! clear sweep, readback, recount, responses) and the same timing but for the commit
//! (see timing.rs), plus the counter group of ports.rs (`counter_saturated`,
//! `counter_wdata`, `counter_rdata`). Beside the control runs counting/ops.rs (which slot is
//! an insert, a delete, a counter write); each bank is a counting/partition.rs (a
//! 2^b x c counter RAM with read-modify-write at one operation per clock).
//!
//! Pipeline of an operation accepted in cycle 0: as core/top.rs up to c5 (the counter in c5
//! instead of the bit; hit = every counter non-zero, registered in c6, response in c7;
//! a readback's bit and counter are its bank's registered ones of c6, chosen here by the
//! bank selection counting/ops.rs carries to c6, in place of the control's c5 -> c6 register),
//! then the write-back of the new counters at the end of c7 (commit_latency 7), where a
//! delete writes only if its k counters were all non-zero (the AND of c5, registered).
//! The counts are a cycle later than the plain core's (timing.rs, COUNTING_COUNT_DELAY),
//! but for the recount after a reset, counted from c5 as before.
//! Same-address read/write: see counting/partition.rs (forwarded from the four slots
//! ahead, never left to the RAM).

use rust_hdl::prelude::*;

use crate::core::control::Control;
use crate::core::glue;
use crate::core::request_line::{delay_of, RequestLine};
use crate::counting::ops::{CountOps, ToCounters};
use crate::counting::partition::CountingPartition;
use crate::ports::{link_assignments, Clocking, CorePorts, Counter, Scrub};

#[derive(LogicBlock)]
pub struct CountingCore<const W: usize> {
    pub sys: Clocking<W>,
    pub io: CorePorts<W>,
    pub scrub: Scrub<W>,
    pub counter: Counter<W>,
    pub(crate) control: Control<W>,
    /// The control's request line (core/request_line.rs), again for the counting
    /// operations: they ride beside the stages, so they see what enters them. A counter
    /// write's value travels in the line's readback address (zero-extended).
    pub(crate) ops_line: RequestLine,
    pub(crate) ops: CountOps<W>,
    pub(crate) parts: Vec<CountingPartition<W>>,
}

impl<const W: usize> CountingCore<W> {
    /// `family`: the hash family (its request line's cycles).
    pub fn new(
        control: Control<W>,
        parts: Vec<CountingPartition<W>>,
        family: bloom_params::HashFamily,
    ) -> Self {
        CountingCore {
            sys: Default::default(),
            io: Default::default(),
            scrub: Default::default(),
            counter: Default::default(),
            control,
            ops_line: RequestLine::new(delay_of(family)),
            ops: Default::default(),
            parts,
        }
    }

    /// The simulated counters of bank `p` (for tests).
    pub fn bank_contents(&self, p: usize) -> &[u8] {
        self.parts[p].bank_contents()
    }

    pub fn k(&self) -> usize {
        self.parts.len()
    }
}

// The glue of every variant (core/glue.rs: ports, control, banks), then what is the
// counting core's own: the counting operations beside the control, every bank's term,
// the readback's counter and the counter group. Like the glue, written twice: `update`
// for rust-hdl's simulator, `hdl` for the Verilog, each a function of its own so that
// lane 0 of a counting `bloom_lanes` (hdl/src/lanes/lane0.rs) is this core and its tap,
// not a copy of it.
impl<const W: usize> Logic for CountingCore<W> {
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
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(hdl_counting::<W>(self.parts.len(), None))
    }
}

/// `update` of the counting core (its fields, one by one).
#[allow(clippy::too_many_arguments)]
pub(crate) fn update_counting<const W: usize>(
    sys: &Clocking<W>,
    io: &mut CorePorts<W>,
    scrub: &mut Scrub<W>,
    counter: &mut Counter<W>,
    control: &mut Control<W>,
    ops_line: &mut RequestLine,
    ops: &mut CountOps<W>,
    parts: &mut [CountingPartition<W>],
) {
    glue::drive(sys, io, scrub, control, parts);
    let c = &mut *control;
    let o = ops;
    let l = ops_line;
    l.clock.next = sys.clock.val();
    l.reset.next = sys.reset.val();
    l.accept.next = io.req.valid.val() & c.req.ready.val();
    l.op.next = io.req.op.val();
    l.tag.next = Bits::<8>::default();
    l.rb_req.next = io.rb.req.val();
    l.rb_bank.next = io.rb.bank.val();
    l.rb_addr.next = Bits::<16>::from(counter.wdata.val().to_u64());
    l.rb_write.next = io.rb.write.val();
    l.rb_wdata.next = false;
    l.idle.next = !c.status.busy.val();
    o.clock.next = sys.clock.val();
    o.reset.next = sys.reset.val();
    o.accept.next = l.accept_out.val();
    o.op.next = l.op_out.val();
    o.rb_req.next = l.rb_req_out.val();
    o.rb_write.next = l.rb_write_out.val();
    o.rb_bank.next = l.rb_bank_out.val();
    o.rb_wcount.next = Bits::<8>::from(l.rb_addr_out.val().to_u64() & 0xff);
    o.busy.next = !l.idle_out.val();
    // Every bank's term, a bit each (1 above k): each bank registers their AND as
    // its own present6, and the control its hit.
    let terms = parts
        .iter()
        .enumerate()
        .fold(Bits::<16>::from(0xffffu64), |t, (p, part)| {
            t.replace_bit(p, part.term5.val())
        });
    for p in parts.iter_mut() {
        o.banks.join(&mut p.ops);
        p.terms5.next = terms;
    }
    c.all_bits5.next = terms == Bits::<16>::from(0xffffu64);
    let select = c.rb_select5.val();
    // The readback's bit and counter are the banks' registered ones of c6, chosen
    // by the selection carried to c6; the control's own bit path is not used.
    c.rb_bit5.next = false;
    o.rb_select5.next = select;
    // The counter of the readback in c6: its bank's registered counter.
    let select6 = o.rb_select6.val();
    io.rb.data.next = parts
        .iter()
        .enumerate()
        .any(|(p, part)| select6.get_bit(p) & part.nz6.val());
    counter.rdata.next = parts
        .iter()
        .enumerate()
        .find(|(p, _)| select6.get_bit(*p))
        .map_or(Bits::<8>::default(), |(_, part)| part.value6.val());
    let bank = parts.get(io.fill.bank.val().index());
    io.fill.count.next = bank.map_or(Bits::<17>::default(), |p| p.fill.val());
    counter.saturated.next = bank.map_or(Bits::<17>::default(), |p| p.saturated.val());
}

/// `connect` of the counting core.
pub(crate) fn connect_counting<const W: usize>(
    io: &mut CorePorts<W>,
    scrub: &mut Scrub<W>,
    counter: &mut Counter<W>,
    control: &mut Control<W>,
    ops_line: &mut RequestLine,
    ops: &mut CountOps<W>,
    parts: &mut [CountingPartition<W>],
) {
    glue::connect(io, scrub, control, parts);
    let c = &mut *control;
    c.all_bits5.connect();
    c.rb_bit5.connect();
    let l = ops_line;
    l.clock.connect();
    l.reset.connect();
    l.accept.connect();
    l.op.connect();
    l.tag.connect();
    l.rb_req.connect();
    l.rb_bank.connect();
    l.rb_addr.connect();
    l.rb_write.connect();
    l.rb_wdata.connect();
    l.idle.connect();
    let o = ops;
    o.clock.connect();
    o.reset.connect();
    o.accept.connect();
    o.op.connect();
    o.rb_req.connect();
    o.rb_write.connect();
    o.rb_bank.connect();
    o.rb_wcount.connect();
    o.busy.connect();
    o.rb_select5.connect();
    o.banks.join_connect();
    for p in parts.iter_mut() {
        p.ops.join_connect();
        p.terms5.connect();
    }
    io.fill.count.connect();
    counter.saturated.connect();
    counter.rdata.connect();
}

/// What the control and the banks show the lanes' query lanes, unread in a core on its
/// own: a waiver of the lint.
fn unread_tap(k: usize) -> String {
    let mut tap: Vec<String> = crate::core::control::LaneTap::<1>::FIELDS
        .iter()
        .map(|f| format!("control$lane_tap${}", f.name))
        .collect();
    for p in 0..k {
        for f in ["replica_write_next", "replica_addr_next", "replica_nz_next"] {
            tap.push(format!("parts${p}${f}"));
        }
    }
    format!(
        "/* verilator lint_off UNUSED */\nwire unused_lane_tap = &{{1'b0, {}, 1'b0}};\n/* verilator lint_on UNUSED */\n",
        tap.join(", ")
    )
}

/// The body of the counting core's Verilog for k banks; `more`: what lane 0 of the lanes
/// adds (its tap's assignments), else the tap's waiver.
pub(crate) fn hdl_counting<const W: usize>(k: usize, more: Option<&str>) -> String {
    let mut v = String::new();
    // Bank p's term in bit p, 1 above k.
    let mut terms: Vec<String> = (0..k).rev().map(|p| format!("parts${p}$term5")).collect();
    if k < 16 {
        terms.insert(0, format!("{{{}{{1'b1}}}}", 16 - k));
    }
    v += "wire [15:0] terms5;\n";
    v += &format!("assign terms5 = {{{}}};\n", terms.join(", "));
    v += "always @(*) begin\n";
    let (clocking, inputs, outputs) = glue::control_hdl::<W>();
    v += &clocking;
    v += &inputs;
    // io$rb$data is the banks' (below), not the control's.
    v += &outputs.replace("    io$rb$data = control$rb$data;\n", "");
    v += "    ops_line$clock = sys$clock;\n    ops_line$reset = sys$reset;\n";
    v += "    ops_line$accept = io$req$valid & control$req$ready;\n";
    v += "    ops_line$op = io$req$op;\n    ops_line$tag = 8'd0;\n    ops_line$rb_req = io$rb$req;\n";
    v += "    ops_line$rb_bank = io$rb$bank;\n    ops_line$rb_addr = {8'd0, counter$wdata};\n";
    v += "    ops_line$rb_write = io$rb$write;\n    ops_line$rb_wdata = 1'b0;\n";
    v += "    ops_line$idle = ~control$status$busy;\n";
    v += "    ops$clock = sys$clock;\n    ops$reset = sys$reset;\n";
    v += "    ops$accept = ops_line$accept_out;\n";
    v += "    ops$op = ops_line$op_out;\n    ops$rb_req = ops_line$rb_req_out;\n    ops$rb_write = ops_line$rb_write_out;\n";
    v +=
        "    ops$rb_bank = ops_line$rb_bank_out;\n    ops$rb_wcount = ops_line$rb_addr_out[7:0];\n";
    v += "    ops$busy = ~ops_line$idle_out;\n";
    for p in 0..k {
        v += &glue::bank_hdl::<W>(p);
        v += &link_assignments(&ToCounters::<W>::join_hdl(
            "",
            "ops$banks",
            &format!("parts${p}$ops"),
        ));
        v += &format!("    parts${p}$terms5 = terms5;\n");
    }
    v += &glue::scrub_mismatch_hdl(k);
    v += "    control$all_bits5 = &terms5;\n";
    v += "    control$rb_bit5 = 1'b0;\n";
    let selected: Vec<String> = (0..k)
        .map(|p| format!("(ops$rb_select6[{p}] & parts${p}$nz6)"))
        .collect();
    v += &format!("    io$rb$data = {};\n", selected.join(" | "));
    v += "    ops$rb_select5 = control$rb_select5;\n";
    let values: Vec<String> = (0..k)
        .map(|p| format!("({{8{{ops$rb_select6[{p}]}}}} & parts${p}$value6)"))
        .collect();
    v += &format!("    counter$rdata = {};\n", values.join(" | "));
    v += "    case (io$fill$bank)\n";
    for p in 0..k {
        v += &format!("        4'd{p}: begin io$fill$count = parts${p}$fill; counter$saturated = parts${p}$saturated; end\n");
    }
    if k < 16 {
        v += "        default: begin io$fill$count = 17'd0; counter$saturated = 17'd0; end\n";
    }
    v += "    endcase\n";
    v += "end\n";
    v += "/* verilator lint_off UNUSED */\nwire unused_control_rb_data = control$rb$data;\n/* verilator lint_on UNUSED */\n";
    // What the counting operations' line carries and they do not read.
    v += "/* verilator lint_off UNUSED */\nwire unused_ops_line = &{1'b0, ops_line$tag_out, ops_line$rb_addr_out[15:8], ops_line$rb_wdata_out, ops_line$clear_ahead, 1'b0};\n/* verilator lint_on UNUSED */\n";
    v += more.unwrap_or(&unread_tap(k));
    if k < 16 {
        v += &format!(
                "/* verilator lint_off UNUSED */\nwire unused_rb_select = &{{1'b0, control$rb_select5[15:{k}], ops$rb_select6[15:{k}], 1'b0}};\n/* verilator lint_on UNUSED */\n"
            );
    }
    v
}
