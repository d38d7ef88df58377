//! The clear sweep and the recount after reset, and the core's `busy` (its `idle`).
//!
//! A clear accepted in cycle 0 (`clear0`) is in c1 and c2 here; its sweep's lead starts
//! with it in c3, one cycle ahead of the writes it stands for (`lead`(t) =
//! `sweeping`(t+1)), and steps `count` through every address, 0 ..= 2^b - 1. The count
//! runs on past the last address once the sweep ends; the next sweep restarts it at 0.
//! In recount mode (set by reset, cleared when the sweep ends) the same machinery
//! reads instead of writing: the control turns each step into a recount slot of c2,
//! carried here to c5 (`recount_slot2` .. `recount_slot5`).
//!
//! Reset starts the recount like a clear accepted in the reset's last cycle.
//! Latency: `clear0` in cycle 0 -> `lead` in c3 -> `sweeping` in c4; `idle` low from c1
//! until the sweep's last slot (or the recount's, counted in c5) has passed.
//! No memory; no same-address behaviour.
//!
//! Every next value is written as logic, not as a conditional load: a load is a clock
//! enable, and on iCE40 a flip-flop's synchronous reset acts only when enabled, so the
//! reset (and the sweep's end) went through two LUT levels into the enable. As logic,
//! each next value is one LUT and the reset reaches the flip-flop's own reset.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Sweep {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// A clear is accepted in this cycle (c0).
    pub clear0: Signal<In, bool>,
    /// No clear in c1, c2, c3 or the sweep, no recount slot in flight: !busy.
    pub idle: Signal<Out, bool>,
    /// The sweep one cycle ahead of its writes (it starts when the clear is in c3).
    pub lead: Signal<Out, bool>,
    /// The address the sweep writes (or the recount reads) next cycle.
    pub count: Signal<Out, Bits<16>>,
    /// The sweep writes (or reads) in this cycle.
    pub sweeping: Signal<Out, bool>,
    /// The sweep is the recount after a reset (reads, no writes).
    pub recount: Signal<Out, bool>,
    /// A recount slot in c3.
    pub recount3: Signal<Out, bool>,
    clear1: DFF<bool>,
    clear2: DFF<bool>,
    idle_r: DFF<bool>,
    sweep_lead: DFF<bool>,
    sweep_count: DFF<Bits<16>>,
    // The sweep count's clock enable (sweep_lead | clear2), computed a cycle ahead:
    // a LUT in front of a clock enable costs a slow enable route on top.
    sweep_step: DFF<bool>,
    // The sweep is at its last address (computed a cycle ahead).
    sweep_at_last: DFF<bool>,
    sweeping_r: DFF<bool>,
    recount_mode: DFF<bool>,
    // A recount slot in c2, c3, c4, c5.
    recount_slot2: DFF<bool>,
    recount_slot3: DFF<bool>,
    recount_slot4_r: DFF<bool>,
    recount_slot5: DFF<bool>,
    sweep_before_last: Constant<Bits<16>>,
    sweep_one: Constant<Bits<16>>,
    sweep_zero: Constant<Bits<16>>,
    address_mask: Constant<Bits<16>>,
}

impl Sweep {
    /// The sweep of banks of 2^`bank_bits` addresses.
    pub fn new(bank_bits: usize) -> Self {
        Sweep {
            clock: Default::default(),
            reset: Default::default(),
            clear0: Default::default(),
            idle: Default::default(),
            lead: Default::default(),
            count: Default::default(),
            sweeping: Default::default(),
            recount: Default::default(),
            recount3: Default::default(),
            clear1: Default::default(),
            clear2: Default::default(),
            idle_r: Default::default(),
            sweep_lead: Default::default(),
            sweep_count: Default::default(),
            sweep_step: Default::default(),
            sweep_at_last: Default::default(),
            sweeping_r: Default::default(),
            recount_mode: Default::default(),
            recount_slot2: Default::default(),
            recount_slot3: Default::default(),
            recount_slot4_r: Default::default(),
            recount_slot5: Default::default(),
            sweep_before_last: Constant::new(((1u64 << bank_bits) - 2).into()),
            sweep_one: Constant::new(1u64.into()),
            sweep_zero: Constant::new(0u64.into()),
            address_mask: Constant::new(((1u64 << bank_bits) - 1).into()),
        }
    }
}

impl Logic for Sweep {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            clear1,
            clear2,
            idle_r,
            sweep_lead,
            sweep_count,
            sweep_step,
            sweep_at_last,
            sweeping_r,
            recount_mode,
            recount_slot2,
            recount_slot3,
            recount_slot4_r,
            recount_slot5
        );
        self.clear1.d.next = self.clear0.val();
        self.clear2.d.next = self.clear1.q.val();
        self.recount_slot2.d.next = self.sweep_lead.q.val() & self.recount_mode.q.val();
        self.recount_slot3.d.next = self.recount_slot2.q.val();
        self.recount_slot4_r.d.next = self.recount_slot3.q.val();
        self.recount_slot5.d.next = self.recount_slot4_r.q.val();
        // The count is not reset: the clear reloads it before every sweep, and it is
        // not used outside one.
        if self.sweep_step.q.val() {
            if self.clear2.q.val() {
                self.sweep_count.d.next = self.sweep_zero.val();
            } else {
                self.sweep_count.d.next = self.sweep_count.q.val() + self.sweep_one.val();
            }
        }
        self.sweep_lead.d.next =
            self.clear2.q.val() | (self.sweep_lead.q.val() & !self.sweep_at_last.q.val());
        self.recount_mode.d.next =
            self.recount_mode.q.val() & !(self.sweep_lead.q.val() & self.sweep_at_last.q.val());
        self.sweep_at_last.d.next = (self.sweep_lead.q.val() & !self.sweep_at_last.q.val())
            & ((self.sweep_count.q.val() & self.address_mask.val())
                == self.sweep_before_last.val());
        self.sweep_step.d.next = (self.clear1.q.val() | self.clear2.q.val())
            | (self.sweep_lead.q.val() & !self.sweep_at_last.q.val());
        self.sweeping_r.d.next = self.sweep_lead.q.val();
        // Busy also until the recount's last slot has been counted.
        self.idle_r.d.next = (!self.clear0.val()
            & !((self.clear1.q.val() | self.clear2.q.val()) | self.sweep_lead.q.val()))
            & !((self.recount_slot2.q.val() | self.recount_slot3.q.val())
                | (self.recount_slot4_r.q.val() | self.recount_slot5.q.val()));
        self.idle.next = self.idle_r.q.val();
        self.lead.next = self.sweep_lead.q.val();
        self.count.next = self.sweep_count.q.val();
        self.sweeping.next = self.sweeping_r.q.val();
        self.recount.next = self.recount_mode.q.val();
        self.recount3.next = self.recount_slot3.q.val();
        if self.reset.val() {
            // The recount starts like a clear accepted in the reset's last cycle.
            self.clear1.d.next = true;
            self.clear2.d.next = false;
            self.recount_mode.d.next = true;
            self.recount_slot2.d.next = false;
            self.recount_slot3.d.next = false;
            self.recount_slot4_r.d.next = false;
            self.recount_slot5.d.next = false;
            self.idle_r.d.next = false;
            self.sweep_step.d.next = false;
            self.sweep_lead.d.next = false;
            self.sweeping_r.d.next = false;
            self.sweep_at_last.d.next = false;
        }
    }
}
