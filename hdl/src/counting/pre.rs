//! The value a counting bank's slot in c4 takes forward from two to four slots ahead
//! (`pre5`): the value after the slot two ahead (now in c6: its alternative if it
//! writes it, as present6 says for a delete, its counter otherwise), else after the slot
//! three ahead (`w7`), else four ahead (`w8`); present6 reaches it through one LUT
//! (`take_pre_alt4`, kept as a net). And the base of the slot's alternative
//! (`prealt5`): the same value, or for a counter write its value - 1 (1 for 0), so that
//! every alternative is a +1 or a -1 (`g_inc5`: a +1).
//!
//! Latency: choices of c4, registered into c5. No memory; no reset (each is loaded in
//! every cycle and read only through the selects forward.rs resets).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PreValue {
    pub clock: Signal<In, Clock>,
    /// The slot in c6 found all its counters non-zero.
    pub present6: Signal<In, bool>,
    /// The slot in c4 has the address of the slot in c5 (which writes its alternative
    /// unconditionally / if present), of c6, of c7 (forward.rs).
    pub e2a: Signal<In, bool>,
    pub e2d: Signal<In, bool>,
    pub eq2: Signal<In, bool>,
    pub eq3: Signal<In, bool>,
    /// The candidates: the slot in c6's alternative and counter, w7 and w8 (the values
    /// after the slots in c7 and c8), each with whether it is non-zero.
    pub alt6: Signal<In, Bits<8>>,
    pub alt_nz6: Signal<In, bool>,
    pub cur6: Signal<In, Bits<8>>,
    pub cur_nz6: Signal<In, bool>,
    pub w7: Signal<In, Bits<8>>,
    pub w7_nz: Signal<In, bool>,
    pub w8: Signal<In, Bits<8>>,
    pub w8_nz: Signal<In, bool>,
    /// The slot in c4: an insert; a counter write of this bank, its value and value - 1.
    pub ins4: Signal<In, bool>,
    pub cw4: Signal<In, bool>,
    pub cwd4: Signal<In, Bits<8>>,
    pub cwd_dec4: Signal<In, Bits<8>>,
    pub pre5: Signal<Out, Bits<8>>,
    pub pre_nz5: Signal<Out, bool>,
    /// The next value of `pre_nz5` (for the term the partition registers with it).
    pub pre_nz_next: Signal<Out, bool>,
    pub prealt5: Signal<Out, Bits<8>>,
    pub g_inc5: Signal<Out, bool>,
    // pre5 / prealt5 take the alternative of the slot in c6 (present6 enters here
    // only), else the rest of their choice.
    take_pre_alt4: Signal<Local, bool>,
    take_prealt_alt4: Signal<Local, bool>,
    pre_else4: Signal<Local, Bits<8>>,
    pre_nz_else4: Signal<Local, bool>,
    prealt_else4: Signal<Local, Bits<8>>,
    cw_base4: Signal<Local, Bits<8>>,
    pre_r: DFF<Bits<8>>,
    pre_nz_r: DFF<bool>,
    prealt_r: DFF<Bits<8>>,
    g_inc_r: DFF<bool>,
    counter_zero: Constant<Bits<8>>,
    counter_one: Constant<Bits<8>>,
    counter_max: Constant<Bits<8>>,
}

impl PreValue {
    /// For counters of `counter_bits` (2..=8) bits.
    pub fn new(counter_bits: usize) -> Self {
        PreValue {
            clock: Default::default(),
            present6: Default::default(),
            e2a: Default::default(),
            e2d: Default::default(),
            eq2: Default::default(),
            eq3: Default::default(),
            alt6: Default::default(),
            alt_nz6: Default::default(),
            cur6: Default::default(),
            cur_nz6: Default::default(),
            w7: Default::default(),
            w7_nz: Default::default(),
            w8: Default::default(),
            w8_nz: Default::default(),
            ins4: Default::default(),
            cw4: Default::default(),
            cwd4: Default::default(),
            cwd_dec4: Default::default(),
            pre5: Default::default(),
            pre_nz5: Default::default(),
            pre_nz_next: Default::default(),
            prealt5: Default::default(),
            g_inc5: Default::default(),
            take_pre_alt4: Default::default(),
            take_prealt_alt4: Default::default(),
            pre_else4: Default::default(),
            pre_nz_else4: Default::default(),
            prealt_else4: Default::default(),
            cw_base4: Default::default(),
            pre_r: Default::default(),
            pre_nz_r: Default::default(),
            prealt_r: Default::default(),
            g_inc_r: Default::default(),
            counter_zero: Constant::new(0u64.into()),
            counter_one: Constant::new(1u64.into()),
            counter_max: Constant::new(((1u64 << counter_bits) - 1).into()),
        }
    }
}

impl Logic for PreValue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pre_r, pre_nz_r, prealt_r, g_inc_r);
        self.g_inc_r.d.next =
            self.ins4.val() | (self.cw4.val() & (self.cwd4.val() != self.counter_zero.val()));
        if self.cwd4.val() == self.counter_zero.val() {
            self.cw_base4.next = self.counter_one.val();
        } else {
            self.cw_base4.next = self.cwd_dec4.val() & self.counter_max.val();
        }
        self.take_pre_alt4.next = self.e2a.val() | (self.e2d.val() & self.present6.val());
        self.take_prealt_alt4.next =
            (self.e2a.val() | (self.e2d.val() & self.present6.val())) & !self.cw4.val();
        if self.eq2.val() {
            self.pre_else4.next = self.cur6.val();
            self.pre_nz_else4.next = self.cur_nz6.val();
        } else if self.eq3.val() {
            self.pre_else4.next = self.w7.val();
            self.pre_nz_else4.next = self.w7_nz.val();
        } else {
            self.pre_else4.next = self.w8.val();
            self.pre_nz_else4.next = self.w8_nz.val();
        }
        if self.take_pre_alt4.val() {
            self.pre_r.d.next = self.alt6.val();
            self.pre_nz_r.d.next = self.alt_nz6.val();
        } else {
            self.pre_r.d.next = self.pre_else4.val();
            self.pre_nz_r.d.next = self.pre_nz_else4.val();
        }
        if self.cw4.val() {
            self.prealt_else4.next = self.cw_base4.val();
        } else {
            self.prealt_else4.next = self.pre_else4.val();
        }
        if self.take_prealt_alt4.val() {
            self.prealt_r.d.next = self.alt6.val();
        } else {
            self.prealt_r.d.next = self.prealt_else4.val();
        }
        self.pre5.next = self.pre_r.q.val();
        self.pre_nz5.next = self.pre_nz_r.q.val();
        self.pre_nz_next.next = self.pre_nz_r.d.val();
        self.prealt5.next = self.prealt_r.q.val();
        self.g_inc5.next = self.g_inc_r.q.val();
    }
}
