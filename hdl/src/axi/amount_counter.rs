//! `AmountCounter`: a 32-bit counter that adds an amount per cycle (the
//! operations of a beat of lanes, up to 128), where `EventCounter` adds one.
//!
//! `amount` (zero-extended to 32 bits by the caller) and `zero` are registered
//! first, so the caller may give them from logic: an amount in cycle t is in
//! `value` from cycle t+2; `zero` in cycle t makes `value` 0 from cycle t+2,
//! winning over an amount in the same cycle. No reset of its own: give the reset
//! as `zero` (the counts are statistics, exact from their zero on). The add is
//! one 32-bit carry chain (a register block's statistics, off the lanes' paths).
//!
//! Memory: none (65 flip-flops).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AmountCounter {
    pub clock: Signal<In, Clock>,
    /// What to add this cycle.
    pub amount: Signal<In, Bits<32>>,
    /// Zero the counter.
    pub zero: Signal<In, bool>,
    /// The sum of the amounts, modulo 2^32, as of two cycles ago.
    pub value: Signal<Out, Bits<32>>,
    adding: DFF<Bits<32>>,
    clearing: DFF<bool>,
    count: DFF<Bits<32>>,
    zero_32: Constant<Bits<32>>,
}

impl Default for AmountCounter {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            amount: Default::default(),
            zero: Default::default(),
            value: Default::default(),
            adding: Default::default(),
            clearing: Default::default(),
            count: Default::default(),
            zero_32: Constant::new(0.into()),
        }
    }
}

impl Logic for AmountCounter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, adding, clearing, count);
        self.adding.d.next = self.amount.val();
        self.clearing.d.next = self.zero.val();
        if self.clearing.q.val() {
            self.count.d.next = self.zero_32.val();
        } else {
            self.count.d.next = self.count.q.val() + self.adding.q.val();
        }
        self.value.next = self.count.q.val();
    }
}
