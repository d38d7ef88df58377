//! `ScrubCompare`: one bank's scrub result (docs/contract.md §5.2, §5.3), shared by the
//! plain partition (core/partition.rs) and the counting counts (counting/counts.rs). It
//! compares the bank's fill counter with the scrub's count, and with the fill the bank
//! had in its image when the core was generated (the power-up check), and holds the
//! result on `mismatch`: a scrub's end (`finish`) loads the first compare, the power-up
//! check's moment (`power_up`) the second; the result holds until the next of either,
//! and a reset zeroes it.
//!
//! Latency: each compare is registered in two steps (three equalities of 6, 6 and 5 bits,
//! then their AND: at most two LUT4 levels between flip-flops), so `finish` or
//! `power_up` in cycle t compares the counts of cycle t - 2 and loads `mismatch` at the
//! end of t (shown from t + 1). No memory.
//!
//! Not built (a core generated without the scrub): `mismatch` is loaded with 0 in every
//! cycle, a constant that synthesis removes with the compares.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ScrubCompare {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// The bank's fill counter (1 bits, or non-zero counters).
    pub fill: Signal<In, Bits<17>>,
    /// The scrub's count of the bank.
    pub scrub_count: Signal<In, Bits<17>>,
    /// The scrub ends: load the compare of `fill` with `scrub_count`.
    pub finish: Signal<In, bool>,
    /// The power-up check's moment: load the compare of `fill` with the image's fill.
    pub power_up: Signal<In, bool>,
    /// The bank differed at the last scrub's end or power-up check.
    pub mismatch: Signal<Out, bool>,
    same_a: DFF<bool>,
    same_b: DFF<bool>,
    same_c: DFF<bool>,
    same_all: DFF<bool>,
    image_a: DFF<bool>,
    image_b: DFF<bool>,
    image_c: DFF<bool>,
    image_all: DFF<bool>,
    held: DFF<bool>,
    image_fill: Constant<Bits<17>>,
    built: Constant<bool>,
}

impl ScrubCompare {
    /// The compare of a bank whose image holds `image_fill` 1 bits (non-zero counters);
    /// `built`: the core has the scrub.
    pub fn new(image_fill: u64, built: bool) -> Self {
        ScrubCompare {
            clock: Default::default(),
            reset: Default::default(),
            fill: Default::default(),
            scrub_count: Default::default(),
            finish: Default::default(),
            power_up: Default::default(),
            mismatch: Default::default(),
            same_a: Default::default(),
            same_b: Default::default(),
            same_c: Default::default(),
            same_all: Default::default(),
            image_a: Default::default(),
            image_b: Default::default(),
            image_c: Default::default(),
            image_all: Default::default(),
            held: Default::default(),
            image_fill: Constant::new(image_fill.into()),
            built: Constant::new(built),
        }
    }
}

impl Logic for ScrubCompare {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, same_a, same_b, same_c, same_all, image_a, image_b, image_c, image_all,
            held
        );
        self.same_a.d.next =
            self.fill.val().get_bits::<6>(0) == self.scrub_count.val().get_bits::<6>(0);
        self.same_b.d.next =
            self.fill.val().get_bits::<6>(6) == self.scrub_count.val().get_bits::<6>(6);
        self.same_c.d.next =
            self.fill.val().get_bits::<5>(12) == self.scrub_count.val().get_bits::<5>(12);
        self.same_all.d.next = (self.same_a.q.val() & self.same_b.q.val()) & self.same_c.q.val();
        self.image_a.d.next =
            self.fill.val().get_bits::<6>(0) == self.image_fill.val().get_bits::<6>(0);
        self.image_b.d.next =
            self.fill.val().get_bits::<6>(6) == self.image_fill.val().get_bits::<6>(6);
        self.image_c.d.next =
            self.fill.val().get_bits::<5>(12) == self.image_fill.val().get_bits::<5>(12);
        self.image_all.d.next =
            (self.image_a.q.val() & self.image_b.q.val()) & self.image_c.q.val();
        if self.finish.val() {
            self.held.d.next = !self.same_all.q.val();
        } else if self.power_up.val() {
            self.held.d.next = !self.image_all.q.val();
        }
        if !self.built.val() {
            self.held.d.next = false;
        }
        if self.reset.val() {
            self.held.d.next = false;
        }
        self.mismatch.next = self.held.q.val();
    }
}
