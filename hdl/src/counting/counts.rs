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
//! Latency: steps of c6 -> counts at the end of c7. No memory.

use rust_hdl::prelude::*;

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
    pub fill: Signal<Out, Bits<17>>,
    pub saturated: Signal<Out, Bits<17>>,
    recount5: DFF<bool>,
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
}

impl Counts {
    /// The counts of a bank of 2^`bank_bits` counters.
    pub fn new(bank_bits: usize) -> Self {
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
            fill: Default::default(),
            saturated: Default::default(),
            recount5: Default::default(),
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
        }
    }
}

impl Logic for Counts {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, recount5, fill_up7, fill_down7, sat_up7, sat_down7, clear6, fill_count,
            sat_count
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
        self.fill.next = self.fill_count.q.val();
        self.saturated.next = self.sat_count.q.val();
        if self.reset.val() {
            self.recount5.d.next = false;
            self.fill_up7.d.next = false;
            self.fill_down7.d.next = false;
            self.sat_up7.d.next = false;
            self.sat_down7.d.next = false;
            self.clear6.d.next = false;
            self.fill_count.d.next = self.count_zero.val();
            self.sat_count.d.next = self.count_zero.val();
        }
    }
}
