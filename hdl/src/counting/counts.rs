//! A counting bank's two counts: its non-zero counters (`fill`) and its counters at S
//! = 2^c - 1 (`saturated`). Each slot's steps are worked out in c6 from its counter
//! before and after its change (and, for a recount slot in c5, from the RAM's counter:
//! nothing writes while the recount runs, so it ends as early as the plain core's),
//! registered, and added in c7: +1, -1 (all ones) or 0 every cycle, from flip-flops
//! (no enable: a count's enable would be a wide net, promoted to a slow global one).
//!
//! A clear in c5 (`clear5`) zeroes both counts at the end of its c6, over the step of
//! the slot one ahead (the last one counted after it), once a reset can no longer
//! cancel it. Reset zeroes both counts and drops the steps in flight.
//!
//! The scrub's count (docs/contract.md §5.2, core/scrub.rs) is a third count, of the
//! non-zero counters as the fill: a scrub slot's counter (forwarded, as a readback's) if
//! it is non-zero, and every fill step of a slot whose address is below the scrub's
//! pointer (`below4`). A clear and the scrub's start zero it in the cycle a clear zeroes
//! the fill (`scrub_zero5`, carried to c6 as `clear5`); `scrub_finish` loads the
//! mismatch from its compare with the fill, and the power-up check (docs/contract.md
//! §5.3) from the fill's compare with the image's non-zero counters (both in
//! core/scrub_compare.rs, as the plain core's banks). The saturated count is not
//! scrubbed: a counter's zero-ness is what answers a query.
//! Latency: steps of c6 -> counts at the end of c7. No memory.

use rust_hdl::prelude::*;

use crate::core::scrub_compare::ScrubCompare;

#[derive(LogicBlock)]
pub struct Counts {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// A clear in c5.
    pub clear5: Signal<In, bool>,
    /// A recount slot in c4 (its counter is counted from the RAM in c5).
    pub recount4: Signal<In, bool>,
    /// The RAM's counter in c5 is non-zero / at S.
    pub ram_nz5: Signal<In, bool>,
    pub ram_sat5: Signal<In, bool>,
    /// The slot in c6: its counter non-zero before / after its change.
    pub nz_before6: Signal<In, bool>,
    pub nz_after6: Signal<In, bool>,
    /// The slot in c6: its counter at S before / after its change.
    pub sat_before6: Signal<In, bool>,
    pub sat_after6: Signal<In, bool>,
    /// The slot in c4 is a scrub slot / its address is below the scrub's pointer.
    pub scrub4: Signal<In, bool>,
    pub below4: Signal<In, bool>,
    /// The scrub's start in c5; the banks compare their scrub counts now.
    pub scrub_zero5: Signal<In, bool>,
    pub scrub_finish: Signal<In, bool>,
    /// The power-up check's moment (docs/contract.md §5.3): the fill is compared with the
    /// image's non-zero counters.
    pub power_up: Signal<In, bool>,
    pub fill: Signal<Out, Bits<17>>,
    pub saturated: Signal<Out, Bits<17>>,
    /// The scrub's count at the end of the last scrub differed from the fill.
    pub scrub_mismatch: Signal<Out, bool>,
    recount5: DFF<bool>,
    // A scrub slot / a slot below the pointer in c5, c6; the start in c6.
    scrub5: DFF<bool>,
    scrub6: DFF<bool>,
    below5: DFF<bool>,
    below6: DFF<bool>,
    zero6: DFF<bool>,
    // The scrub count's steps, registered and added in c7, as the fill's.
    sc_up7: DFF<bool>,
    sc_down7: DFF<bool>,
    sc_addend: Signal<Local, Bits<17>>,
    sc_addend_low: Signal<Local, Bits<17>>,
    scrub_count: DFF<Bits<17>>,
    // The fill and the scrub count agree in bits 5..0, 11..6, 16..12; in all of them.
    // The scrub's result and the power-up check's (core/scrub_compare.rs).
    compare: ScrubCompare,
    // The count steps of the slot in c6, registered and added in c7.
    fill_up7: DFF<bool>,
    fill_down7: DFF<bool>,
    sat_up7: DFF<bool>,
    sat_down7: DFF<bool>,
    fill_addend: Signal<Local, Bits<17>>,
    sat_addend: Signal<Local, Bits<17>>,
    fill_addend_low: Signal<Local, Bits<17>>,
    sat_addend_low: Signal<Local, Bits<17>>,
    // A clear in c6 (it zeroes the counts at the end of c6).
    clear6: DFF<bool>,
    fill_count: DFF<Bits<17>>,
    sat_count: DFF<Bits<17>>,
    count_zero: Constant<Bits<17>>,
    count_one: Constant<Bits<17>>,
    count_upper: Constant<Bits<17>>,
    count_mask: Constant<Bits<17>>,
    // The core has the scrub; without it the scrub's count and result are held at 0.
    scrub_built: Constant<bool>,
}

impl Counts {
    /// The counts of a bank of 2^`bank_bits` counters, `image_fill` of them non-zero in
    /// the image the core was generated with; `scrub_built`: the core has the scrub.
    pub fn new(bank_bits: usize, image_fill: u64, scrub_built: bool) -> Self {
        Counts {
            clock: Default::default(),
            reset: Default::default(),
            clear5: Default::default(),
            recount4: Default::default(),
            ram_nz5: Default::default(),
            ram_sat5: Default::default(),
            nz_before6: Default::default(),
            nz_after6: Default::default(),
            sat_before6: Default::default(),
            sat_after6: Default::default(),
            scrub4: Default::default(),
            below4: Default::default(),
            scrub_zero5: Default::default(),
            scrub_finish: Default::default(),
            power_up: Default::default(),
            fill: Default::default(),
            saturated: Default::default(),
            scrub_mismatch: Default::default(),
            recount5: Default::default(),
            scrub5: Default::default(),
            scrub6: Default::default(),
            below5: Default::default(),
            below6: Default::default(),
            zero6: Default::default(),
            sc_up7: Default::default(),
            sc_down7: Default::default(),
            sc_addend: Default::default(),
            sc_addend_low: Default::default(),
            scrub_count: Default::default(),
            compare: ScrubCompare::new(image_fill, scrub_built),
            fill_up7: Default::default(),
            fill_down7: Default::default(),
            sat_up7: Default::default(),
            sat_down7: Default::default(),
            fill_addend: Default::default(),
            sat_addend: Default::default(),
            fill_addend_low: Default::default(),
            sat_addend_low: Default::default(),
            clear6: Default::default(),
            fill_count: Default::default(),
            sat_count: Default::default(),
            count_zero: Constant::new(0u64.into()),
            count_one: Constant::new(1u64.into()),
            count_upper: Constant::new(((1u64 << (bank_bits + 1)) - 2).into()),
            count_mask: Constant::new(((1u64 << (bank_bits + 1)) - 1).into()),
            scrub_built: Constant::new(scrub_built),
        }
    }
}

impl Logic for Counts {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            recount5,
            fill_up7,
            fill_down7,
            sat_up7,
            sat_down7,
            clear6,
            fill_count,
            sat_count,
            scrub5,
            scrub6,
            below5,
            below6,
            zero6,
            sc_up7,
            sc_down7,
            scrub_count
        );
        self.recount5.d.next = self.recount4.val();
        // Each count's addend as two flip-flops: a step (+1 or -1: bit 0) and a step down
        // (-1: bits 1..16 too), so that the adders start from registers.
        self.fill_up7.d.next = (self.nz_before6.val() ^ self.nz_after6.val())
            | (self.recount5.q.val() & self.ram_nz5.val());
        self.fill_down7.d.next = self.nz_before6.val() & !self.nz_after6.val();
        self.sat_up7.d.next = (self.sat_before6.val() ^ self.sat_after6.val())
            | (self.recount5.q.val() & self.ram_sat5.val());
        self.sat_down7.d.next = self.sat_before6.val() & !self.sat_after6.val();
        if self.fill_down7.q.val() {
            self.fill_addend.next = self.count_upper.val();
        } else {
            self.fill_addend.next = self.count_zero.val();
        }
        if self.fill_up7.q.val() {
            self.fill_addend_low.next = self.count_one.val();
        } else {
            self.fill_addend_low.next = self.count_zero.val();
        }
        if self.sat_down7.q.val() {
            self.sat_addend.next = self.count_upper.val();
        } else {
            self.sat_addend.next = self.count_zero.val();
        }
        if self.sat_up7.q.val() {
            self.sat_addend_low.next = self.count_one.val();
        } else {
            self.sat_addend_low.next = self.count_zero.val();
        }
        // Both counts within b + 1 bits (neither exceeds the bank's 2^b counters): above
        // bit b they are constant 0, synthesis drops those flip-flops, and each adder's
        // carry chain is b + 1 bits long, not 17.
        self.fill_count.d.next = (self.fill_count.q.val()
            + (self.fill_addend.val() | self.fill_addend_low.val()))
            & self.count_mask.val();
        self.sat_count.d.next = (self.sat_count.q.val()
            + (self.sat_addend.val() | self.sat_addend_low.val()))
            & self.count_mask.val();
        self.clear6.d.next = self.clear5.val();
        if self.clear6.q.val() {
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
        }
        // The scrub's count: a scrub slot's counter (its before and after are the same),
        // and the fill's steps below the pointer.
        self.scrub5.d.next = self.scrub4.val();
        self.scrub6.d.next = self.scrub5.q.val();
        self.below5.d.next = self.below4.val();
        self.below6.d.next = self.below5.q.val();
        self.zero6.d.next = self.scrub_zero5.val();
        self.sc_up7.d.next = (self.below6.q.val() & (self.nz_before6.val() ^ self.nz_after6.val()))
            | (self.scrub6.q.val() & self.nz_before6.val());
        self.sc_down7.d.next =
            (self.below6.q.val() & self.nz_before6.val()) & !self.nz_after6.val();
        if self.sc_down7.q.val() {
            self.sc_addend.next = self.count_upper.val();
        } else {
            self.sc_addend.next = self.count_zero.val();
        }
        if self.sc_up7.q.val() {
            self.sc_addend_low.next = self.count_one.val();
        } else {
            self.sc_addend_low.next = self.count_zero.val();
        }
        if self.clear6.q.val() | self.zero6.q.val() {
            self.scrub_count.d.next = self.count_zero.val();
        } else {
            self.scrub_count.d.next = (self.scrub_count.q.val()
                + (self.sc_addend.val() | self.sc_addend_low.val()))
                & self.count_mask.val();
        }
        self.compare.clock.next = self.clock.val();
        self.compare.reset.next = self.reset.val();
        self.compare.fill.next = self.fill_count.q.val();
        self.compare.scrub_count.next = self.scrub_count.q.val();
        self.compare.finish.next = self.scrub_finish.val();
        self.compare.power_up.next = self.power_up.val();
        self.fill.next = self.fill_count.q.val();
        self.saturated.next = self.sat_count.q.val();
        self.scrub_mismatch.next = self.compare.mismatch.val();
        if !self.scrub_built.val() {
            self.scrub_count.d.next = self.count_zero.val();
        }
        if self.reset.val() {
            self.recount5.d.next = false;
            self.fill_up7.d.next = false;
            self.fill_down7.d.next = false;
            self.sat_up7.d.next = false;
            self.sat_down7.d.next = false;
            self.clear6.d.next = false;
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
            self.scrub5.d.next = false;
            self.scrub6.d.next = false;
            self.below5.d.next = false;
            self.below6.d.next = false;
            self.zero6.d.next = false;
            self.sc_up7.d.next = false;
            self.sc_down7.d.next = false;
        }
    }
}
