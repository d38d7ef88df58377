//! Response FIFO: `depth` entries of (hit, tag), between the fixed-latency pipeline and
//! the response channel. The pipeline never stalls; the control admits a request only
//! while a FIFO entry is reserved for it (credit count < depth), so a push never finds
//! it full and backpressure on `resp_ready` loses and reorders nothing. The depth is
//! the core's latency plus one ([`depth_for`]): with fewer entries, a sink that is
//! always ready would see fewer responses than cycles.
//!
//! Latency: 1 cycle (push in cycle t -> `out_valid` in cycle t+1 when it was empty).
//! Entries are plain registers (no array), so synthesis never spends a block RAM
//! on them; no same-address behaviour to speak of. `out_valid` is a flip-flop. Two
//! shapes, by depth:
//! - up to 8 entries, a ring: one-hot pointers, the output an AND-OR of the entries
//!   (two LUT4 levels), the fill level a thermometer code;
//! - deeper (the Feistel family's 10), a shift register: the head is always entry 0,
//!   so the output is flip-flops, and each entry loads, in every cycle, the pushed
//!   response, the entry above it (after a pop) or itself, two LUT4 levels from
//!   flip-flops and the inputs; the fill level is one-hot. An AND-OR over more than 8
//!   entries is three levels, which was the UP5K critical path of a Feistel core.
//!   synth_ecp5 with LUT5..LUT7 maps each bit's choice (seven inputs) to one LUT7,
//!   four LUT4s: 653 LUT4 for the default filter's FIFO (196 without them, as bloom's
//!   ECP5 builds synthesise, flow/src/steps.rs). The choice made once per entry, each
//!   bit a LUT3 and the entry's clock enable, took that to 375 (the core 1631 -> 1353,
//!   ECP5-85F Fmax unchanged over seeds 1..3), but put `resp_ready` on iCE40's enable
//!   route: UP5K 83.04 MHz median over 20 seeds against 92.91. `(* keep *)` on the two
//!   inner choices made both parts worse (ECP5 743 LUT4; UP5K 88.55 MHz). Neither is
//!   used.

use std::collections::VecDeque;

use rust_hdl::prelude::*;

/// The depth of a core whose request line (core/request_line.rs) is `delay` cycles.
pub const fn depth_for(delay: usize) -> usize {
    RESPONSE_FIFO_DEPTH + delay
}

/// The depth of a core without a request line (latency 7).
pub const RESPONSE_FIFO_DEPTH: usize = 8;

/// The deepest FIFO any core has (the control's credit count is this wide).
pub const RESPONSE_FIFO_MAX_DEPTH: usize = 16;

#[derive(LogicBlock)]
pub struct ResponseFifo {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub push: Signal<In, bool>,
    pub push_hit: Signal<In, bool>,
    pub push_tag: Signal<In, Bits<8>>,
    pub pop: Signal<In, bool>,
    pub out_valid: Signal<Out, bool>,
    pub out_hit: Signal<Out, bool>,
    pub out_tag: Signal<Out, Bits<8>>,
    _entries: VecDeque<(bool, u8)>,
    _depth: usize,
}

impl ResponseFifo {
    pub fn new(depth: usize) -> Self {
        assert!((2..=RESPONSE_FIFO_MAX_DEPTH).contains(&depth));
        ResponseFifo {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            push_hit: Default::default(),
            push_tag: Default::default(),
            pop: Default::default(),
            out_valid: Default::default(),
            out_hit: Default::default(),
            out_tag: Default::default(),
            _entries: VecDeque::new(),
            _depth: depth,
        }
    }
}

impl Logic for ResponseFifo {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.reset.val() {
                self._entries.clear();
            } else {
                let popped = self.pop.val() && !self._entries.is_empty();
                if self.push.val() {
                    assert!(
                        self._entries.len() < self._depth + usize::from(popped),
                        "response FIFO overflow"
                    );
                    self._entries
                        .push_back((self.push_hit.val(), self.push_tag.val().to_u8()));
                }
                if popped {
                    self._entries.pop_front();
                }
            }
        }
        let head = self._entries.front().copied();
        self.out_valid.next = head.is_some();
        let (hit, tag) = head.unwrap_or((false, 0));
        self.out_hit.next = hit;
        self.out_tag.next = (tag as u64).into();
    }

    fn connect(&mut self) {
        self.out_valid.connect();
        self.out_hit.connect();
        self.out_tag.connect();
    }

    fn hdl(&self) -> Verilog {
        if self._depth > RESPONSE_FIFO_DEPTH {
            return Verilog::Custom(shift_register_verilog(self._depth));
        }
        let n = self._depth;
        let last = n - 1;
        let lm1 = last - 1;
        let mut code = String::new();
        for i in 0..n {
            code += &format!("reg [8:0] entry_{i};\n");
        }
        code += &format!(
            "\
reg [{last}:0] write_select;
reg [{last}:0] read_select;
reg [{last}:0] occupancy;
wire popped = pop & occupancy[0];
// The fill level moves by AND/OR, not by ifs: a shifted-in constant under an if
// becomes a synchronous set/reset whose logic lands on the slow SR route. Written as
// push ? (popped ? .. : ..) : (popped ? .. : ..), each inner choice one LUT4 of
// flip-flops and the pop input, so the whole update is two LUT levels.
wire [{last}:0] popped_mask = {{{n}{{popped}}}};
wire [{last}:0] occupancy_if_push = (occupancy & popped_mask) | ({{occupancy[{lm1}:0], 1'b1}} & ~popped_mask);
wire [{last}:0] occupancy_if_not = ({{1'b0, occupancy[{last}:1]}} & popped_mask) | (occupancy & ~popped_mask);
always @(posedge clock) begin
"
        );
        for i in 0..n {
            code += &format!(
                "    if (push & write_select[{i}]) entry_{i} <= {{push_hit, push_tag}};\n"
            );
        }
        code += &format!(
            "\
    if (reset) begin
        write_select <= {n}'d1;
        read_select <= {n}'d1;
        occupancy <= {n}'d0;
    end else begin
        // Rotated by AND/OR too: under an if, popped became the pointer's clock enable,
        // a LUT in front of the slow enable route.
        write_select <= ({{write_select[{lm1}:0], write_select[{last}]}} & {{{n}{{push}}}})
            | (write_select & {{{n}{{!push}}}});
        read_select <= ({{read_select[{lm1}:0], read_select[{last}]}} & popped_mask)
            | (read_select & ~popped_mask);
        occupancy <= (occupancy_if_push & {{{n}{{push}}}}) | (occupancy_if_not & {{{n}{{!push}}}});
    end
end
always @(*) begin
    out_valid = occupancy[0];
    {{out_hit, out_tag}} = ",
        );
        let terms: Vec<String> = (0..n)
            .map(|i| format!("({{9{{read_select[{i}]}}}} & entry_{i})"))
            .collect();
        code += &terms.join("\n        | ");
        code += ";\nend\n";
        Verilog::Custom(code)
    }
}

/// The body of a FIFO of `n` entries as a shift register (see the header): entry 0 is
/// the head; `count_at` is one-hot, bit c when c entries are held.
fn shift_register_verilog(n: usize) -> String {
    let mut v = String::new();
    for i in 0..n {
        v += &format!("reg [8:0] entry_{i};\n");
    }
    v += &format!(
        "\
reg [{n}:0] count_at;
reg occupied;
wire popped = pop & occupied;
wire [8:0] pushed = {{push_hit, push_tag}};
wire grow = push & ~popped;
wire shrink = popped & ~push;
"
    );
    for i in 0..n {
        let above = if i + 1 < n {
            format!("entry_{}", i + 1)
        } else {
            "9'd0".to_string()
        };
        // After a pop the entries move down and a push lands on the last one held
        // (count_at[i + 1]); without a pop a push lands on the first free (count_at[i]).
        v += &format!(
            "wire [8:0] after_pop_{i} = (push & count_at[{}]) ? pushed : {above};\n\
             wire [8:0] kept_{i} = (push & count_at[{i}]) ? pushed : entry_{i};\n",
            i + 1
        );
    }
    v += "always @(posedge clock) begin\n";
    for i in 0..n {
        v += &format!("    entry_{i} <= popped ? after_pop_{i} : kept_{i};\n");
    }
    v += &format!(
        "    if (reset) begin
        count_at <= {{{n}'d0, 1'b1}};
        occupied <= 1'b0;
    end else begin
        count_at <= ({{count_at[{nm1}:0], 1'b0}} & {{{n1}{{grow}}}})
            | ({{1'b0, count_at[{n}:1]}} & {{{n1}{{shrink}}}})
            | (count_at & {{{n1}{{~(grow | shrink)}}}});
        occupied <= push | (occupied & ~(pop & count_at[1]));
    end
end
always @(*) begin
    out_valid = occupied;
    {{out_hit, out_tag}} = entry_0;
end
",
        nm1 = n - 1,
        n1 = n + 1,
    );
    v
}
