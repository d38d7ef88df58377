//! The request line: what the admission accepts in c0 (a request, a readback slot),
//! carried `delay` cycles before it enters the operation stages (core/stages.rs), the
//! sweep and the scrub's choice of free slots. It lets a hash family whose network needs
//! more cycles than H3's unit start hashing in the cycle the request is accepted, while
//! the rest of the pipeline keeps its stages: everything after the line is the core of
//! a one-cycle hash, `delay` cycles later (core/control.rs, `Timing`).
//!
//! Latency: `delay` cycles, 0 for H3, CRC and SPN (the outputs are then the inputs, no
//! register), [`FEISTEL_DELAY`] for Feistel. No memory; no same-address behaviour.
//! Reset empties the line: a request or readback in it is dropped, as reset drops those
//! in the stages.
//!
//! `clear_ahead` is high while a clear is in the line: the admission treats the core as
//! busy from the cycle after the clear's acceptance, as without the line. It is a
//! flip-flop (loaded from the accepted request and the slots that stay in the line), so
//! `req_ready` stays one LUT after flip-flops and the request inputs.

use rust_hdl::prelude::*;

use bloom_params::HashFamily;

use crate::hash::feistel;

/// The line's cycles in front of a Feistel core: the network's registers beyond H3's
/// unit's one.
pub const FEISTEL_DELAY: usize = feistel::LATENCY - 2;

/// The line's cycles for a hash family.
pub fn delay_of(family: HashFamily) -> usize {
    match family {
        HashFamily::Feistel => FEISTEL_DELAY,
        HashFamily::H3 | HashFamily::Crc | HashFamily::Spn => 0,
    }
}

#[derive(LogicBlock)]
pub struct RequestLine {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// c0: a request accepted, its op and tag; a readback slot, its bank, address, bit
    /// write; `idle`: the core was not busy (a bit write is kept only then).
    pub accept: Signal<In, bool>,
    pub op: Signal<In, Bits<2>>,
    pub tag: Signal<In, Bits<8>>,
    pub rb_req: Signal<In, bool>,
    pub rb_bank: Signal<In, Bits<4>>,
    pub rb_addr: Signal<In, Bits<16>>,
    pub rb_write: Signal<In, bool>,
    pub rb_wdata: Signal<In, bool>,
    pub idle: Signal<In, bool>,
    /// The same, `delay` cycles later.
    pub accept_out: Signal<Out, bool>,
    pub op_out: Signal<Out, Bits<2>>,
    pub tag_out: Signal<Out, Bits<8>>,
    pub rb_req_out: Signal<Out, bool>,
    pub rb_bank_out: Signal<Out, Bits<4>>,
    pub rb_addr_out: Signal<Out, Bits<16>>,
    pub rb_write_out: Signal<Out, bool>,
    pub rb_wdata_out: Signal<Out, bool>,
    pub idle_out: Signal<Out, bool>,
    /// A clear is in the line.
    pub clear_ahead: Signal<Out, bool>,
    _delay: usize,
    /// The slots in the line, oldest last.
    _slots: Vec<Slot>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Slot {
    accept: bool,
    op: u64,
    tag: u64,
    rb_req: bool,
    rb_bank: u64,
    rb_addr: u64,
    rb_write: bool,
    rb_wdata: bool,
    idle: bool,
}

const OP_CLEAR: u64 = 2;

impl RequestLine {
    pub fn new(delay: usize) -> Self {
        RequestLine {
            clock: Default::default(),
            reset: Default::default(),
            accept: Default::default(),
            op: Default::default(),
            tag: Default::default(),
            rb_req: Default::default(),
            rb_bank: Default::default(),
            rb_addr: Default::default(),
            rb_write: Default::default(),
            rb_wdata: Default::default(),
            idle: Default::default(),
            accept_out: Default::default(),
            op_out: Default::default(),
            tag_out: Default::default(),
            rb_req_out: Default::default(),
            rb_bank_out: Default::default(),
            rb_addr_out: Default::default(),
            rb_write_out: Default::default(),
            rb_wdata_out: Default::default(),
            idle_out: Default::default(),
            clear_ahead: Default::default(),
            _delay: delay,
            _slots: vec![Slot::default(); delay],
        }
    }

    fn input(&self) -> Slot {
        Slot {
            accept: self.accept.val(),
            op: self.op.val().to_u64(),
            tag: self.tag.val().to_u64(),
            rb_req: self.rb_req.val(),
            rb_bank: self.rb_bank.val().to_u64(),
            rb_addr: self.rb_addr.val().to_u64(),
            rb_write: self.rb_write.val(),
            rb_wdata: self.rb_wdata.val(),
            idle: self.idle.val(),
        }
    }
}

impl Logic for RequestLine {
    fn update(&mut self) {
        if self._delay > 0 && self.clock.pos_edge() {
            let input = self.input();
            self._slots.pop();
            self._slots.insert(0, input);
            if self.reset.val() {
                for slot in &mut self._slots {
                    slot.accept = false;
                    slot.rb_req = false;
                    slot.rb_write = false;
                }
            }
        }
        let out = self._slots.last().copied().unwrap_or_else(|| self.input());
        self.accept_out.next = out.accept;
        self.op_out.next = out.op.into();
        self.tag_out.next = out.tag.into();
        self.rb_req_out.next = out.rb_req;
        self.rb_bank_out.next = out.rb_bank.into();
        self.rb_addr_out.next = out.rb_addr.into();
        self.rb_write_out.next = out.rb_write;
        self.rb_wdata_out.next = out.rb_wdata;
        self.idle_out.next = out.idle;
        self.clear_ahead.next = self._slots.iter().any(|s| s.accept && s.op == OP_CLEAR);
    }

    fn connect(&mut self) {
        self.accept_out.connect();
        self.op_out.connect();
        self.tag_out.connect();
        self.rb_req_out.connect();
        self.rb_bank_out.connect();
        self.rb_addr_out.connect();
        self.rb_write_out.connect();
        self.rb_wdata_out.connect();
        self.idle_out.connect();
        self.clear_ahead.connect();
    }

    fn hdl(&self) -> Verilog {
        // (name, width, emptied by reset)
        let fields = [
            ("accept", 1, true),
            ("op", 2, false),
            ("tag", 8, false),
            ("rb_req", 1, true),
            ("rb_bank", 4, false),
            ("rb_addr", 16, false),
            ("rb_write", 1, true),
            ("rb_wdata", 1, false),
            ("idle", 1, false),
        ];
        let d = self._delay;
        let mut v = String::new();
        if d == 0 {
            v += "always @(*) begin\n";
            for (name, _, _) in fields {
                v += &format!("    {name}_out = {name};\n");
            }
            v += "    clear_ahead = 1'b0;\nend\n";
            // clock and reset are not needed without a line (Verilator's idiom).
            v += "/* verilator lint_off UNUSED */\nwire unused_line = &{1'b0, clock, reset, 1'b0};\n/* verilator lint_on UNUSED */\n";
            return Verilog::Custom(v);
        }
        for (name, width, _) in fields {
            for s in 1..=d {
                v += &format!("reg [{}:0] {name}_{s};\n", width - 1);
            }
        }
        v += "always @(posedge clock) begin\n";
        for (name, _, emptied) in fields {
            for s in 1..=d {
                let from = if s == 1 {
                    name.to_string()
                } else {
                    format!("{name}_{}", s - 1)
                };
                if emptied {
                    // A multiplexer to 0, not an AND: Yosys maps it to the flip-flop's
                    // synchronous reset pin, keeping reset out of the LUTs before it.
                    v += &format!("    {name}_{s} <= reset ? 1'b0 : {from};\n");
                } else {
                    v += &format!("    {name}_{s} <= {from};\n");
                }
            }
        }
        v += "end\nalways @(*) begin\n";
        for (name, _, _) in fields {
            v += &format!("    {name}_out = {name}_{d};\n");
        }
        v += "    clear_ahead = clear_in_line;\nend\n";
        // The slots of the next cycle are the input and slots 1 .. d-1 of this one.
        let clears: Vec<String> = std::iter::once("(accept & (op == 2'd2))".to_string())
            .chain((1..d).map(|s| format!("(accept_{s} & (op_{s} == 2'd2))")))
            .collect();
        v = format!(
            "reg clear_in_line;\n{v}always @(posedge clock) clear_in_line <= reset ? 1'b0 : ({});\n",
            clears.join(" | ")
        );
        Verilog::Custom(v)
    }
}
