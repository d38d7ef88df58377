//! `EventCounter`: a 32-bit counter of events, one per cycle at most, in two
//! 16-bit halves, so no carry chain is longer than 16 bits (a 32-bit ripple
//! carry is the slowest path of the register block on iCE40 otherwise). The
//! high half steps in the same cycle as the low half wraps: whether the low
//! half is all ones is kept in a register of its own, so `value` is always
//! whole.
//!
//! `step` (an event or a zero: the caller gives `event | zero`) and `zero`
//! are registered first (the caller may give them from logic: every enable
//! here is a flip-flop, or a gate of two): an event in cycle t is in `value`
//! from cycle t+2. `zero` in cycle t makes `value` 0 from cycle t+2, winning
//! over an event in the same cycle. The OR is the caller's so that it joins
//! the caller's logic for the event: the wrapper keeps each counter whole in
//! synthesis, and an OR inside would be a LUT level of its own (the HITS
//! counter's event, the head of the response FIFO, was three LUT levels and
//! this OR a fourth, the slowest path of the wrapper on UP5K). The counter has
//! no reset of its own: give the reset as `zero` (the counts are statistics;
//! a counter is exact from its zero on).
//!
//! Memory: none (36 flip-flops).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct EventCounter {
    pub clock: Signal<In, Clock>,
    /// One event this cycle, or a zero: `event | zero`.
    pub step: Signal<In, bool>,
    /// Zero the counter.
    pub zero: Signal<In, bool>,
    /// The events counted, modulo 2^32, as of two cycles ago.
    pub value: Signal<Out, Bits<32>>,
    /// `step` and `zero`, registered.
    stepping: DFF<bool>,
    clearing: DFF<bool>,
    /// The low half is all ones.
    low_full: DFF<bool>,
    /// `low_full | clearing`, loaded from their next values: the high half
    /// steps (or zeroes) when `stepping` and this are high, a LUT of two
    /// flip-flops placed with the high half (`clearing`, which also zeroes
    /// both halves, was too far from it on iCE40).
    high_armed: DFF<bool>,
    low: DFF<Bits<16>>,
    high: DFF<Bits<16>>,
    halves: Concat16,
    one: Constant<Bits<16>>,
    zero_16: Constant<Bits<16>>,
    all_ones: Constant<Bits<16>>,
    all_but_one: Constant<Bits<16>>,
}

impl Default for EventCounter {
    fn default() -> Self {
        EventCounter {
            clock: Default::default(),
            step: Default::default(),
            zero: Default::default(),
            value: Default::default(),
            stepping: Default::default(),
            clearing: Default::default(),
            low_full: Default::default(),
            high_armed: Default::default(),
            low: Default::default(),
            high: Default::default(),
            halves: Default::default(),
            one: Constant::new(1.into()),
            zero_16: Constant::new(0.into()),
            all_ones: Constant::new(0xffff.into()),
            all_but_one: Constant::new(0xfffe.into()),
        }
    }
}

impl Logic for EventCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, stepping, clearing, low_full, high_armed, low, high);
        self.halves.high.next = self.high.q.val();
        self.halves.low.next = self.low.q.val();
        self.value.next = self.halves.wide.val();
        self.stepping.d.next = self.step.val();
        self.clearing.d.next = self.zero.val();
        self.low_full.d.next = self.low.q.val() == self.all_ones.val();
        if self.stepping.q.val() {
            self.low_full.d.next =
                (self.low.q.val() == self.all_but_one.val()) & !self.clearing.q.val();
            if self.clearing.q.val() {
                self.low.d.next = self.zero_16.val();
            } else {
                self.low.d.next = self.low.q.val() + self.one.val();
            }
        }
        self.high_armed.d.next = self.low_full.d.val() | self.clearing.d.val();
        if self.stepping.q.val() & self.high_armed.q.val() {
            if self.clearing.q.val() {
                self.high.d.next = self.zero_16.val();
            } else {
                self.high.d.next = self.high.q.val() + self.one.val();
            }
        }
    }
}

/// `{high, low}`: combinational, no delay. rust-hdl has no concatenation in
/// `update` (a widening `bit_cast` prints as a masked AND, a Verilator WIDTH
/// warning), so the Verilog is given here.
#[derive(LogicBlock, Default)]
pub struct Concat16 {
    pub high: Signal<In, Bits<16>>,
    pub low: Signal<In, Bits<16>>,
    pub wide: Signal<Out, Bits<32>>,
}

impl Logic for Concat16 {
    fn update(&mut self) {
        self.wide.next =
            (bit_cast::<32, 16>(self.high.val()) << 16) | bit_cast::<32, 16>(self.low.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) wide = {high, low};".into())
    }
}
