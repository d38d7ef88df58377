//! `CounterStep`: a counter's two alternatives, +1 and -1, both saturating: a counter
//! of c bits at S = 2^c - 1 stays at S either way (contract §7: a saturated counter is
//! never decremented). -1 of 0 gives S; the core never writes it (a delete of a zero
//! counter is not carried out).
//!
//! Combinational, no delay, no memory. Each output bit i is written as a function of
//! bits 0..=i and of the saturation alone (bit i of +1 flips when bits below are all
//! ones, of -1 when they are all zeros), so that synthesis maps it without a carry
//! chain: one LUT4 per bit for c <= 4, where an adder's chain cost the counting core's
//! choice of the alternative its slowest path on iCE40.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CounterStep {
    /// The counter (bits c..7 are 0).
    pub value: Signal<In, Bits<8>>,
    /// value + 1, or S at S (bits c..7 are 0).
    pub up: Signal<Out, Bits<8>>,
    /// value - 1, or S at S (bits c..7 are 0).
    pub down: Signal<Out, Bits<8>>,
    _counter_bits: usize,
}

impl CounterStep {
    /// The steps of a counter of `counter_bits` (2..=8) bits.
    pub fn new(counter_bits: usize) -> Self {
        assert!(
            (2..=8).contains(&counter_bits),
            "counter_bits {counter_bits} outside 2..=8"
        );
        CounterStep {
            value: Default::default(),
            up: Default::default(),
            down: Default::default(),
            _counter_bits: counter_bits,
        }
    }
}

impl Logic for CounterStep {
    fn update(&mut self) {
        let max = (1u64 << self._counter_bits) - 1;
        let v = self.value.val().to_u64() & max;
        let (up, down) = if v == max {
            (max, max)
        } else {
            ((v + 1) & max, v.wrapping_sub(1) & max)
        };
        self.up.next = up.into();
        self.down.next = down.into();
    }

    fn connect(&mut self) {
        self.up.connect();
        self.down.connect();
    }

    fn hdl(&self) -> Verilog {
        let c = self._counter_bits;
        let mut v = String::from("always @(*) begin\n    up = 8'd0;\n    down = 8'd0;\n");
        let sat = format!("(&value[{}:0])", c - 1);
        for i in 0..c {
            if i == 0 {
                v += &format!("    up[0] = {sat} | ~value[0];\n    down[0] = {sat} | ~value[0];\n");
            } else {
                v += &format!(
                    "    up[{i}] = {sat} | (value[{i}] ^ (&value[{l}:0]));\n",
                    l = i - 1
                );
                v += &format!(
                    "    down[{i}] = {sat} | (value[{i}] ^ ~(|value[{l}:0]));\n",
                    l = i - 1
                );
            }
        }
        v += "end\n";
        if c < 8 {
            v += &format!("/* verilator lint_off UNUSED */\nwire unused_value = &{{1'b0, value[7:{c}], 1'b0}};\n/* verilator lint_on UNUSED */\n");
        }
        Verilog::Custom(v)
    }
}
