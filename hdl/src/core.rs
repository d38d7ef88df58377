//! `bloom_core`: the partitioned Bloom filter core (top level).
//!
//! PORTS (as agreed in the team brief; W = key_bits, TAG = 8) — unchanged:
//!   input  clock, reset          reset: synchronous, active high; clears the pipeline,
//!                                the response FIFO, the clear sweep and the fill counters
//!                                (to the preloaded image's counts); never the memory
//!   input  req_valid; output req_ready; input [1:0] req_op; input [W-1:0] req_key;
//!   input  [7:0] req_tag
//!   output resp_valid; input resp_ready; output resp_hit; output [7:0] resp_tag
//!   input  rb_req; input [3:0] rb_bank; input [15:0] rb_addr; output rb_valid; output rb_data
//!   input  [3:0] fill_bank; output [16:0] fill_count
//!   output busy
//!
//! TIMING (cycle t = the clock period that ends with the sampling edge; "accepted in
//! cycle t" = req_valid & req_ready high in cycle t):
//! - Latency 7: a request accepted in cycle t has resp_valid (with its hit and tag) high
//!   in cycle t+7 when the response channel is not backpressured (`LATENCY`).
//! - Initiation interval 1 for any mix of queries and inserts, forever, while resp_ready
//!   stays high: req_ready = !reset & !rb_req & !busy & (responses outstanding < 8).
//!   The 8-entry response FIFO absorbs backpressure; at most 8 responses are ever
//!   outstanding, so nothing is lost or reordered. req_ready does not depend on
//!   resp_ready or req_valid combinationally (only on rb_req and reset); apart from
//!   those two inputs it is an AND of flip-flops.
//! - Clear accepted in cycle t: busy = 1 and req_ready = 0 in cycles t+1 ..= t+3+2^b
//!   (`clear_cycles` = 2^b + 3); its response (hit 0) comes in cycle t+7 like any other.
//!   Requests accepted from cycle t+4+2^b on see empty banks; fill counters read 0 from
//!   cycle t+6 on.
//! - Readback: rb_req high in cycle t (no request is accepted in that cycle) reads bit
//!   rb_addr of bank rb_bank; rb_valid = 1 and rb_data = the bit in cycle t+6
//!   (`READBACK_LATENCY`), for one cycle. The bit includes every operation accepted
//!   before cycle t (same forwarding as a query). rb_addr bits >= b are ignored; a bank
//!   >= k reads 0. rb_data is unspecified while busy.
//! - fill_count = fill counter of bank fill_bank (0 for a bank >= k), combinational from
//!   registers. An insert accepted in cycle t is counted from cycle t+7 on (the cycle
//!   its response is presented in, at the earliest).
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
//! Same-address read/write: see partition.rs (forwarded, never left to the RAM).
//!
//! Why latency 7 (it was 6): the hit is registered at the end of c5 and pushed from that
//! register, so between a RAM output register and the next flip-flop there is only the
//! AND over the banks' bits. Together with flip-flop-driven req_ready, RAM write
//! enable/address and fill-counter controls, and two-level hash trees, this is what
//! lets the iCE40 parts run near their block-RAM limit (issue 6).
//!
//! Rule for every register of the core: at most two LUT4 levels after flip-flops or the
//! request inputs (carry chains aside). ABC maps for the deepest path of the whole design
//! and then trades depth for area everywhere else, so a single three-level path (the
//! admission, the forwarding compare) let it rebuild the hash trees three and four
//! levels deep: that, not the admission itself, was the UP5K critical path.

use rust_hdl::prelude::*;

use crate::control::Control;
use crate::partition::Partition;

#[derive(LogicBlock)]
pub struct BloomCore<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub req_valid: Signal<In, bool>,
    pub req_ready: Signal<Out, bool>,
    pub req_op: Signal<In, Bits<2>>,
    pub req_key: Signal<In, Bits<W>>,
    pub req_tag: Signal<In, Bits<8>>,
    pub resp_valid: Signal<Out, bool>,
    pub resp_ready: Signal<In, bool>,
    pub resp_hit: Signal<Out, bool>,
    pub resp_tag: Signal<Out, Bits<8>>,
    pub rb_req: Signal<In, bool>,
    pub rb_bank: Signal<In, Bits<4>>,
    pub rb_addr: Signal<In, Bits<16>>,
    pub rb_valid: Signal<Out, bool>,
    pub rb_data: Signal<Out, bool>,
    pub fill_bank: Signal<In, Bits<4>>,
    pub fill_count: Signal<Out, Bits<17>>,
    pub busy: Signal<Out, bool>,
    control: Control<W>,
    parts: Vec<Partition<W>>,
}

impl<const W: usize> BloomCore<W> {
    pub fn new(control: Control<W>, parts: Vec<Partition<W>>) -> Self {
        BloomCore {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_key: Default::default(),
            req_tag: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_hit: Default::default(),
            resp_tag: Default::default(),
            rb_req: Default::default(),
            rb_bank: Default::default(),
            rb_addr: Default::default(),
            rb_valid: Default::default(),
            rb_data: Default::default(),
            fill_bank: Default::default(),
            fill_count: Default::default(),
            busy: Default::default(),
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

// The glue below depends on the runtime bank count k, which rust-hdl's #[hdl_gen] cannot
// loop over, so it is written twice, side by side: `update` for rust-hdl's simulator and
// `hdl` for the Verilog. It is wiring, an AND over the banks and two bank multiplexers.
impl<const W: usize> Logic for BloomCore<W> {
    fn update(&mut self) {
        let c = &mut self.control;
        c.clock.next = self.clock.val();
        c.reset.next = self.reset.val();
        c.req_valid.next = self.req_valid.val();
        c.req_op.next = self.req_op.val();
        c.req_key.next = self.req_key.val();
        c.req_tag.next = self.req_tag.val();
        c.resp_ready.next = self.resp_ready.val();
        c.rb_req.next = self.rb_req.val();
        c.rb_bank.next = self.rb_bank.val();
        c.rb_addr.next = self.rb_addr.val();
        self.req_ready.next = c.req_ready.val();
        self.resp_valid.next = c.resp_valid.val();
        self.resp_hit.next = c.resp_hit.val();
        self.resp_tag.next = c.resp_tag.val();
        self.rb_valid.next = c.rb_valid.val();
        self.rb_data.next = c.rb_data.val();
        self.busy.next = c.busy.val();
        for p in self.parts.iter_mut() {
            p.clock.next = self.clock.val();
            p.reset.next = self.reset.val();
            p.key1.next = c.key1.val();
            p.is_rb2.next = c.is_rb2.val();
            p.rb_addr2.next = c.rb_addr2.val();
            p.write4.next = c.write4.val();
            p.insert5.next = c.insert5.val();
            p.clear5.next = c.clear5.val();
            p.sweep_en.next = c.sweep_en.val();
            p.sweep_en3.next = c.sweep_en3.val();
            p.sweep_addr3.next = c.sweep_addr3.val();
        }
        c.all_bits5.next = self.parts.iter().all(|p| p.bit5.val());
        let select = c.rb_select5.val();
        c.rb_bit5.next = self.parts.iter().enumerate().any(|(p, part)| select.get_bit(p) & part.bit5.val());
        self.fill_count.next = self
            .parts
            .get(self.fill_bank.val().index())
            .map_or(Bits::<17>::default(), |p| {
                Bits::<17>::from((p.fill_high.val().to_u64() << 8) | p.fill_low.val().to_u64())
            });
    }

    fn connect(&mut self) {
        for s in [&mut self.req_ready, &mut self.resp_valid, &mut self.resp_hit, &mut self.rb_valid, &mut self.rb_data, &mut self.busy] {
            s.connect();
        }
        self.resp_tag.connect();
        self.fill_count.connect();
        let c = &mut self.control;
        c.clock.connect();
        c.reset.connect();
        c.req_valid.connect();
        c.req_op.connect();
        c.req_key.connect();
        c.req_tag.connect();
        c.resp_ready.connect();
        c.rb_req.connect();
        c.rb_bank.connect();
        c.rb_addr.connect();
        c.all_bits5.connect();
        c.rb_bit5.connect();
        for p in self.parts.iter_mut() {
            p.clock.connect();
            p.reset.connect();
            p.key1.connect();
            p.is_rb2.connect();
            p.rb_addr2.connect();
            p.write4.connect();
            p.insert5.connect();
            p.clear5.connect();
            p.sweep_en.connect();
            p.sweep_en3.connect();
            p.sweep_addr3.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let k = self.parts.len();
        let mut v = String::from("always @(*) begin\n");
        for port in ["clock", "reset", "req_valid", "req_op", "req_key", "req_tag", "resp_ready", "rb_req", "rb_bank", "rb_addr"] {
            v += &format!("    control${port} = {port};\n");
        }
        for port in ["req_ready", "resp_valid", "resp_hit", "resp_tag", "rb_valid", "rb_data", "busy"] {
            v += &format!("    {port} = control${port};\n");
        }
        for p in 0..k {
            v += &format!("    parts${p}$clock = clock;\n    parts${p}$reset = reset;\n");
            for port in ["key1", "is_rb2", "rb_addr2", "write4", "insert5", "clear5", "sweep_en", "sweep_en3", "sweep_addr3"] {
                v += &format!("    parts${p}${port} = control${port};\n");
            }
        }
        let bits: Vec<String> = (0..k).map(|p| format!("parts${p}$bit5")).collect();
        v += &format!("    control$all_bits5 = {};\n", bits.join(" & "));
        let selected: Vec<String> = (0..k).map(|p| format!("(control$rb_select5[{p}] & parts${p}$bit5)")).collect();
        v += &format!("    control$rb_bit5 = {};\n", selected.join(" | "));
        // Each partition's fill counter comes in two halves.
        let mut kept = String::new();
        for p in 0..k {
            kept += &format!("wire [16:0] fill_of_{p} = {{parts${p}$fill_high, parts${p}$fill_low}};\n");
        }
        // fill_count is combinational in fill_bank (an input). Up to 4 banks it is spelled
        // as two LUT4 levels, held apart by kept wires: a 2:1 mux per bank pair, then the
        // pair mux gated by "fill_bank's high bits are 0" (ABC made three levels).
        if k <= 4 {
            let pairs = k.div_ceil(2);
            for i in 0..pairs {
                let odd = if 2 * i + 1 < k { format!("fill_of_{}", 2 * i + 1) } else { "17'd0".to_string() };
                kept += &format!("(* keep *) wire [16:0] fill_pair_{i} = fill_bank[0] ? {odd} : fill_of_{};\n", 2 * i);
            }
            let (low, chosen) = if pairs == 1 {
                ("fill_bank[3:1] == 3'd0", "fill_pair_0".to_string())
            } else {
                ("fill_bank[3:2] == 2'd0", "(fill_bank[1] ? fill_pair_1 : fill_pair_0)".to_string())
            };
            kept += &format!("(* keep *) wire fill_bank_low = ({low});\n");
            v += &format!("    fill_count = {{17{{fill_bank_low}}}} & {chosen};\n");
        } else {
            v += "    case (fill_bank)\n";
            for p in 0..k {
                v += &format!("        4'd{p}: fill_count = fill_of_{p};\n");
            }
            if k < 16 {
                v += "        default: fill_count = 17'd0;\n";
            }
            v += "    endcase\n";
        }
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
        Verilog::Custom(v)
    }
}
