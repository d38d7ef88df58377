//! The counter of the slot in c5, chosen among four candidates, newest first: the slot
//! one ahead's (in c6: its alternative `alt6`, or its unchanged counter `cur6`), the
//! value pre5 forwarded from two to four slots ahead, or the RAM's. And the same slot's
//! alternative (its counter +1, or -1, below S: `g_inc`), chosen among the candidates'
//! alternatives the same way (a counter write's from `prealt5` alone).
//!
//! Each choice is an AND-OR over one-hot selects (the selects registered, but for the
//! four `take_*` of the partition, one LUT from present6), so that it is two LUT levels
//! after flip-flops and the RAM's output register. Each candidate's alternative is a
//! `CounterStep` (no carry chain).
//!
//! Combinational, no delay, no memory.

use rust_hdl::prelude::*;

use crate::counting::counter_step::CounterStep;

#[derive(LogicBlock)]
pub struct ValueChoice {
    /// The alternative is a +1 (an insert, a counter write of a non-zero value), else a -1.
    pub g_inc: Signal<In, bool>,
    /// The candidates: the slot one ahead's alternative and unchanged counter (and
    /// whether each is non-zero), pre5 (and whether it is), a counter write's base, the
    /// RAM's counter (and whether it is non-zero).
    pub alt6: Signal<In, Bits<8>>,
    pub alt_nz6: Signal<In, bool>,
    pub cur6: Signal<In, Bits<8>>,
    pub cur_nz6: Signal<In, bool>,
    pub pre5: Signal<In, Bits<8>>,
    pub pre_nz5: Signal<In, bool>,
    pub prealt5: Signal<In, Bits<8>>,
    pub ram: Signal<In, Bits<8>>,
    pub ram_nz: Signal<In, bool>,
    /// One-hot selects of the counter (`take_*` from the partition, `sel_*` registered)
    /// and of the alternative (`*_x`).
    pub take_alt: Signal<In, bool>,
    pub take_cur: Signal<In, bool>,
    pub sel_pre: Signal<In, bool>,
    pub sel_ram: Signal<In, bool>,
    pub take_alt_x: Signal<In, bool>,
    pub take_cur_x: Signal<In, bool>,
    pub sel_pre_x: Signal<In, bool>,
    pub sel_ram_x: Signal<In, bool>,
    /// The counter, whether it is non-zero, its alternative and whether that is non-zero.
    pub value: Signal<Out, Bits<8>>,
    pub nz: Signal<Out, bool>,
    pub alt: Signal<Out, Bits<8>>,
    pub alt_nz: Signal<Out, bool>,
    // Each candidate (a_: alt6, c_: cur6, e_: prealt5, r_: the RAM's): its saturating
    // +1 and -1 (counter_step.rs), its alternative and whether that is non-zero.
    a_step: CounterStep,
    a_alt: Signal<Local, Bits<8>>,
    a_altnz: Signal<Local, bool>,
    c_step: CounterStep,
    c_alt: Signal<Local, Bits<8>>,
    c_altnz: Signal<Local, bool>,
    e_step: CounterStep,
    e_alt: Signal<Local, Bits<8>>,
    e_altnz: Signal<Local, bool>,
    r_step: CounterStep,
    r_alt: Signal<Local, Bits<8>>,
    r_altnz: Signal<Local, bool>,
    // The four terms of the AND-OR choices of the counter and of its alternative.
    t_alt: Signal<Local, Bits<8>>,
    t_cur: Signal<Local, Bits<8>>,
    t_pre: Signal<Local, Bits<8>>,
    t_ram: Signal<Local, Bits<8>>,
    t_alt_alt: Signal<Local, Bits<8>>,
    t_cur_alt: Signal<Local, Bits<8>>,
    t_pre_alt: Signal<Local, Bits<8>>,
    t_ram_alt: Signal<Local, Bits<8>>,
    counter_zero: Constant<Bits<8>>,
    counter_below_max: Constant<Bits<8>>,
}

impl ValueChoice {
    /// The choice for counters of `counter_bits` (2..=8) bits.
    pub fn new(counter_bits: usize) -> Self {
        let max = (1u64 << counter_bits) - 1;
        ValueChoice {
            g_inc: Default::default(),
            alt6: Default::default(),
            alt_nz6: Default::default(),
            cur6: Default::default(),
            cur_nz6: Default::default(),
            pre5: Default::default(),
            pre_nz5: Default::default(),
            prealt5: Default::default(),
            ram: Default::default(),
            ram_nz: Default::default(),
            take_alt: Default::default(),
            take_cur: Default::default(),
            sel_pre: Default::default(),
            sel_ram: Default::default(),
            take_alt_x: Default::default(),
            take_cur_x: Default::default(),
            sel_pre_x: Default::default(),
            sel_ram_x: Default::default(),
            value: Default::default(),
            nz: Default::default(),
            alt: Default::default(),
            alt_nz: Default::default(),
            a_step: CounterStep::new(counter_bits),
            a_alt: Default::default(),
            a_altnz: Default::default(),
            c_step: CounterStep::new(counter_bits),
            c_alt: Default::default(),
            c_altnz: Default::default(),
            e_step: CounterStep::new(counter_bits),
            e_alt: Default::default(),
            e_altnz: Default::default(),
            r_step: CounterStep::new(counter_bits),
            r_alt: Default::default(),
            r_altnz: Default::default(),
            t_alt: Default::default(),
            t_cur: Default::default(),
            t_pre: Default::default(),
            t_ram: Default::default(),
            t_alt_alt: Default::default(),
            t_cur_alt: Default::default(),
            t_pre_alt: Default::default(),
            t_ram_alt: Default::default(),
            counter_zero: Constant::new(0u64.into()),
            counter_below_max: Constant::new((max - 1).into()),
        }
    }
}

impl Logic for ValueChoice {
    #[hdl_gen]
    fn update(&mut self) {
        // Each candidate's alternative: +1 below S if g_inc, else -1 below S (at S both
        // stay), and whether it is non-zero (+1: always; -1: if the counter is >= 2).
        self.a_step.value.next = self.alt6.val();
        if self.g_inc.val() {
            self.a_alt.next = self.a_step.up.val();
        } else {
            self.a_alt.next = self.a_step.down.val();
        }
        self.a_altnz.next = self.g_inc.val()
            | ((self.alt6.val() & self.counter_below_max.val()) != self.counter_zero.val());
        self.c_step.value.next = self.cur6.val();
        if self.g_inc.val() {
            self.c_alt.next = self.c_step.up.val();
        } else {
            self.c_alt.next = self.c_step.down.val();
        }
        self.c_altnz.next = self.g_inc.val()
            | ((self.cur6.val() & self.counter_below_max.val()) != self.counter_zero.val());
        self.e_step.value.next = self.prealt5.val();
        if self.g_inc.val() {
            self.e_alt.next = self.e_step.up.val();
        } else {
            self.e_alt.next = self.e_step.down.val();
        }
        self.e_altnz.next = self.g_inc.val()
            | ((self.prealt5.val() & self.counter_below_max.val()) != self.counter_zero.val());
        self.r_step.value.next = self.ram.val();
        if self.g_inc.val() {
            self.r_alt.next = self.r_step.up.val();
        } else {
            self.r_alt.next = self.r_step.down.val();
        }
        self.r_altnz.next = self.g_inc.val()
            | ((self.ram.val() & self.counter_below_max.val()) != self.counter_zero.val());
        if self.take_alt.val() {
            self.t_alt.next = self.alt6.val();
        } else {
            self.t_alt.next = self.counter_zero.val();
        }
        if self.take_alt_x.val() {
            self.t_alt_alt.next = self.a_alt.val();
        } else {
            self.t_alt_alt.next = self.counter_zero.val();
        }
        if self.take_cur.val() {
            self.t_cur.next = self.cur6.val();
        } else {
            self.t_cur.next = self.counter_zero.val();
        }
        if self.take_cur_x.val() {
            self.t_cur_alt.next = self.c_alt.val();
        } else {
            self.t_cur_alt.next = self.counter_zero.val();
        }
        if self.sel_pre.val() {
            self.t_pre.next = self.pre5.val();
        } else {
            self.t_pre.next = self.counter_zero.val();
        }
        if self.sel_pre_x.val() {
            self.t_pre_alt.next = self.e_alt.val();
        } else {
            self.t_pre_alt.next = self.counter_zero.val();
        }
        if self.sel_ram.val() {
            self.t_ram.next = self.ram.val();
        } else {
            self.t_ram.next = self.counter_zero.val();
        }
        if self.sel_ram_x.val() {
            self.t_ram_alt.next = self.r_alt.val();
        } else {
            self.t_ram_alt.next = self.counter_zero.val();
        }
        self.value.next =
            (self.t_alt.val() | self.t_cur.val()) | (self.t_pre.val() | self.t_ram.val());
        self.alt.next = (self.t_alt_alt.val() | self.t_cur_alt.val())
            | (self.t_pre_alt.val() | self.t_ram_alt.val());
        self.alt_nz.next = ((self.take_alt_x.val() & self.a_altnz.val())
            | (self.take_cur_x.val() & self.c_altnz.val()))
            | ((self.sel_pre_x.val() & self.e_altnz.val())
                | (self.sel_ram_x.val() & self.r_altnz.val()));
        self.nz.next = ((self.take_alt.val() & self.alt_nz6.val())
            | (self.take_cur.val() & self.cur_nz6.val()))
            | ((self.sel_pre.val() & self.pre_nz5.val())
                | (self.sel_ram.val() & self.ram_nz.val()));
    }
}
