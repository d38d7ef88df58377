//! Response FIFO: 8 entries of (hit, tag), between the fixed-latency pipeline and the
//! response channel. The pipeline never stalls; the control admits a request only while
//! a FIFO entry is reserved for it (credit count < 8), so a push never finds it full and
//! backpressure on `resp_ready` loses and reorders nothing.
//!
//! Latency: 1 cycle (push in cycle t -> `out_valid` in cycle t+1 when it was empty).
//! Entries are eight plain registers (no array), so synthesis never spends a block RAM
//! on them; no same-address behaviour to speak of.

use std::collections::VecDeque;

use rust_hdl::prelude::*;

pub const RESPONSE_FIFO_DEPTH: usize = 8;

#[derive(LogicBlock, Default)]
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
}

impl Logic for ResponseFifo {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self.reset.val() {
                self._entries.clear();
            } else {
                let popped = self.pop.val() && !self._entries.is_empty();
                if self.push.val() {
                    assert!(self._entries.len() < RESPONSE_FIFO_DEPTH + usize::from(popped), "response FIFO overflow");
                    self._entries.push_back((self.push_hit.val(), self.push_tag.val().to_u8()));
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
        let mut code = String::new();
        for i in 0..RESPONSE_FIFO_DEPTH {
            code += &format!("reg [8:0] entry_{i};\n");
        }
        code += "\
reg [2:0] write_pointer;
reg [2:0] read_pointer;
reg [3:0] count;
wire popped = pop & (count != 4'd0);
always @(posedge clock) begin
    if (push) begin
        case (write_pointer)
";
        for i in 0..RESPONSE_FIFO_DEPTH {
            code += &format!("            3'd{i}: entry_{i} <= {{push_hit, push_tag}};\n");
        }
        code += "\
        endcase
    end
    if (reset) begin
        write_pointer <= 3'd0;
        read_pointer <= 3'd0;
        count <= 4'd0;
    end else begin
        write_pointer <= write_pointer + {2'd0, push};
        read_pointer <= read_pointer + {2'd0, popped};
        count <= (count + {3'd0, push}) - {3'd0, popped};
    end
end
always @(*) begin
    out_valid = (count != 4'd0);
    case (read_pointer)
";
        for i in 0..RESPONSE_FIFO_DEPTH {
            code += &format!("        3'd{i}: {{out_hit, out_tag}} = entry_{i};\n");
        }
        code += "    endcase\nend\n";
        Verilog::Custom(code)
    }
}
