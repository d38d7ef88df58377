//! `EventCounter`: a 32-bit counter of events, one per cycle at most, in two
//! 16-bit halves with the carry between them registered, so no carry chain is
//! longer than 16 bits (a 32-bit ripple carry is the slowest path of the
//! register block on iCE40 otherwise).
//!
//! Latency: an event (`count` high) in cycle t is in `value` from cycle t+1,
//! except when it carries out of the low half: then the high half follows in
//! cycle t+2 and `settling` is high in cycle t+1, when `value` is not to be
//! read (its low half has wrapped, its high half not yet moved). `zero` in
//! cycle t makes `value` 0 from cycle t+1, winning over an event in the same
//! cycle and over a carry in flight. Synchronous `reset` as `zero`.
//!
//! Memory: none (33 flip-flops).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct EventCounter {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// One event this cycle.
    pub count: Signal<In, bool>,
    /// Zero the counter.
    pub zero: Signal<In, bool>,
    /// The events counted, modulo 2^32 (not while `settling`).
    pub value: Signal<Out, Bits<32>>,
    /// The high half is one carry behind.
    pub settling: Signal<Out, bool>,
    low: DFF<Bits<16>>,
    high: DFF<Bits<16>>,
    carry: DFF<bool>,
    halves: Concat16,
    one: Constant<Bits<16>>,
    zero_16: Constant<Bits<16>>,
    all_ones: Constant<Bits<16>>,
}

impl Default for EventCounter {
    fn default() -> Self {
        EventCounter {
            clock: Default::default(),
            reset: Default::default(),
            count: Default::default(),
            zero: Default::default(),
            value: Default::default(),
            settling: Default::default(),
            low: Default::default(),
            high: Default::default(),
            carry: Default::default(),
            halves: Default::default(),
            one: Constant::new(1.into()),
            zero_16: Constant::new(0.into()),
            all_ones: Constant::new(0xffff.into()),
        }
    }
}

impl Logic for EventCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, low, high, carry);
        self.halves.high.next = self.high.q.val();
        self.halves.low.next = self.low.q.val();
        self.value.next = self.halves.wide.val();
        self.settling.next = self.carry.q.val();
        self.carry.d.next = self.count.val() & (self.low.q.val() == self.all_ones.val());
        if self.count.val() {
            self.low.d.next = self.low.q.val() + self.one.val();
        }
        if self.carry.q.val() {
            self.high.d.next = self.high.q.val() + self.one.val();
        }
        if self.zero.val() | self.reset.val() {
            self.low.d.next = self.zero_16.val();
            self.high.d.next = self.zero_16.val();
            self.carry.d.next = false;
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
        self.wide.next = (bit_cast::<32, 16>(self.high.val()) << 16) | bit_cast::<32, 16>(self.low.val());
    }

    fn connect(&mut self) {
        self.wide.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) wide = {high, low};".into())
    }
}
