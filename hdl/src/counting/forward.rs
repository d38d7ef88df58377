//! Where a counting bank's slot takes its counter from: the address compares of c3 with
//! the slots one to four ahead (those that forward their value: every slot that read an
//! address, unless a test switch takes that away), registered into c4, and from them the
//! one-hot selects of c5, registered: the slot one ahead's alternative or unchanged
//! counter (`ma`, `md`, `sel_cur_p`, `sel_cur_a`: which one depends on present6 and on
//! that slot's operation), pre5 (`sel_pre`), or the RAM's (`sel_ram`); and the same for
//! the alternative (`*_x`: a counter write's alternative comes from prealt5 alone).
//!
//! Each compare ends in one LUT of its own, packed with its flip-flop: the forwarding
//! flags are registered per stage in every bank (kept apart: from one flip-flop in the
//! operations' block, fv4 reached every bank's compare across the chip).
//! Latency: addresses and flags of c3 -> compares in c4 -> selects in c5. No memory.
//! Reset clears every flag and select (nothing is forwarded across a reset).

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct ForwardSelect {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// The addresses of the slots in c3 .. c7.
    pub addr3: Signal<In, Bits<16>>,
    pub addr4: Signal<In, Bits<16>>,
    pub addr5: Signal<In, Bits<16>>,
    pub addr6: Signal<In, Bits<16>>,
    pub addr7: Signal<In, Bits<16>>,
    /// The slot in c3 reads an address / is a delete (counting/ops.rs).
    pub slot3: Signal<In, bool>,
    pub del3: Signal<In, bool>,
    /// The slot in c4 is an insert / a delete / a counter write of this bank.
    pub ins4: Signal<In, bool>,
    pub del4: Signal<In, bool>,
    pub cw4: Signal<In, bool>,
    /// The slot in c5 is an insert / a delete / a counter write of this bank.
    pub ins5: Signal<Out, bool>,
    pub del5: Signal<Out, bool>,
    pub cw5: Signal<Out, bool>,
    /// The slot in c3 has the address of the slot in c5 (which forwards; which writes
    /// its alternative unconditionally / if present), of c6, of c7: registered in c4.
    pub eq2: Signal<Out, bool>,
    pub e2a: Signal<Out, bool>,
    pub e2d: Signal<Out, bool>,
    pub eq3: Signal<Out, bool>,
    /// The selects of c5 (registered) and their next values (for the terms the
    /// partition registers with them).
    pub ma: Signal<Out, bool>,
    pub md: Signal<Out, bool>,
    pub sel_cur_p: Signal<Out, bool>,
    pub sel_cur_a: Signal<Out, bool>,
    pub sel_pre: Signal<Out, bool>,
    pub sel_ram: Signal<Out, bool>,
    pub ma_x: Signal<Out, bool>,
    pub md_x: Signal<Out, bool>,
    pub sel_cur_p_x: Signal<Out, bool>,
    pub sel_cur_a_x: Signal<Out, bool>,
    pub sel_pre_x: Signal<Out, bool>,
    pub sel_ram_x: Signal<Out, bool>,
    pub ma_next: Signal<Out, bool>,
    pub md_next: Signal<Out, bool>,
    pub sel_cur_p_next: Signal<Out, bool>,
    pub sel_cur_a_next: Signal<Out, bool>,
    pub sel_pre_next: Signal<Out, bool>,
    // Slots whose value is forwarded, per stage.
    fv5: DFF<bool>,
    fv6: DFF<bool>,
    fv7: DFF<bool>,
    fv4: DFF<bool>,
    // fv5 and the slot writes its alternative unconditionally (an insert or a counter
    // write: fva5) / if present (a delete: fvd5).
    fva5: DFF<bool>,
    fvd5: DFF<bool>,
    ins5_r: DFF<bool>,
    del5_r: DFF<bool>,
    cw5_r: DFF<bool>,
    eq2_4: DFF<bool>,
    eq3_4: DFF<bool>,
    eq4_4: DFF<bool>,
    e2a_4: DFF<bool>,
    e2d_4: DFF<bool>,
    // The slot in c3 has the address of the slot in c4 (m1_5 in c5: the slot in c5 has
    // the address of the slot in c6).
    m1_4: DFF<bool>,
    m1_5: DFF<bool>,
    ma_5: DFF<bool>,
    md_5: DFF<bool>,
    sel_cur_p5: DFF<bool>,
    sel_cur_a5: DFF<bool>,
    sel_pre5: DFF<bool>,
    sel_ram5: DFF<bool>,
    ma_x5: DFF<bool>,
    md_x5: DFF<bool>,
    sel_cur_p_x5: DFF<bool>,
    sel_cur_a_x5: DFF<bool>,
    sel_pre_x5: DFF<bool>,
    sel_ram_x5: DFF<bool>,
    forwarding_enabled: Constant<bool>,
    // False only under the test switch that removes the forwarding of a delete's value.
    delete_forwarding_enabled: Constant<bool>,
    address_mask: Constant<Bits<16>>,
    address_zero: Constant<Bits<16>>,
}

impl ForwardSelect {
    /// The selects of a bank of 2^`bank_bits` counters, with the test switches'
    /// forwarding enables.
    pub fn new(
        bank_bits: usize,
        forwarding_enabled: bool,
        delete_forwarding_enabled: bool,
    ) -> Self {
        ForwardSelect {
            clock: Default::default(),
            reset: Default::default(),
            addr3: Default::default(),
            addr4: Default::default(),
            addr5: Default::default(),
            addr6: Default::default(),
            addr7: Default::default(),
            slot3: Default::default(),
            del3: Default::default(),
            ins4: Default::default(),
            del4: Default::default(),
            cw4: Default::default(),
            ins5: Default::default(),
            del5: Default::default(),
            cw5: Default::default(),
            eq2: Default::default(),
            e2a: Default::default(),
            e2d: Default::default(),
            eq3: Default::default(),
            ma: Default::default(),
            md: Default::default(),
            sel_cur_p: Default::default(),
            sel_cur_a: Default::default(),
            sel_pre: Default::default(),
            sel_ram: Default::default(),
            ma_x: Default::default(),
            md_x: Default::default(),
            sel_cur_p_x: Default::default(),
            sel_cur_a_x: Default::default(),
            sel_pre_x: Default::default(),
            sel_ram_x: Default::default(),
            ma_next: Default::default(),
            md_next: Default::default(),
            sel_cur_p_next: Default::default(),
            sel_cur_a_next: Default::default(),
            sel_pre_next: Default::default(),
            fv5: Default::default(),
            fv6: Default::default(),
            fv7: Default::default(),
            fv4: Default::default(),
            fva5: Default::default(),
            fvd5: Default::default(),
            ins5_r: Default::default(),
            del5_r: Default::default(),
            cw5_r: Default::default(),
            eq2_4: Default::default(),
            eq3_4: Default::default(),
            eq4_4: Default::default(),
            e2a_4: Default::default(),
            e2d_4: Default::default(),
            m1_4: Default::default(),
            m1_5: Default::default(),
            ma_5: Default::default(),
            md_5: Default::default(),
            sel_cur_p5: Default::default(),
            sel_cur_a5: Default::default(),
            sel_pre5: Default::default(),
            sel_ram5: Default::default(),
            ma_x5: Default::default(),
            md_x5: Default::default(),
            sel_cur_p_x5: Default::default(),
            sel_cur_a_x5: Default::default(),
            sel_pre_x5: Default::default(),
            sel_ram_x5: Default::default(),
            forwarding_enabled: Constant::new(forwarding_enabled),
            delete_forwarding_enabled: Constant::new(delete_forwarding_enabled),
            address_mask: Constant::new(((1u64 << bank_bits) - 1).into()),
            address_zero: Constant::new(0u64.into()),
        }
    }
}

impl Logic for ForwardSelect {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            fv4,
            fv5,
            fv6,
            fv7,
            fva5,
            fvd5,
            ins5_r,
            del5_r,
            cw5_r,
            eq2_4,
            e2a_4,
            e2d_4,
            eq3_4,
            eq4_4,
            m1_4,
            m1_5,
            ma_5,
            md_5,
            ma_x5,
            md_x5,
            sel_cur_p_x5,
            sel_cur_a_x5,
            sel_pre_x5,
            sel_ram_x5,
            sel_cur_p5,
            sel_cur_a5,
            sel_pre5,
            sel_ram5
        );
        // Which slots forward their value (all that read an address; the test switches
        // take away all, or the deletes').
        self.fv4.d.next = (self.forwarding_enabled.val() & self.slot3.val())
            & (self.delete_forwarding_enabled.val() | !self.del3.val());
        self.fv5.d.next = self.fv4.q.val();
        self.fv6.d.next = self.fv5.q.val();
        self.fv7.d.next = self.fv6.q.val();
        self.ins5_r.d.next = self.ins4.val();
        self.del5_r.d.next = self.del4.val();
        self.fva5.d.next = self.fv4.q.val() & (self.ins4.val() | self.cw4.val());
        self.fvd5.d.next = self.fv4.q.val() & self.del4.val();
        self.cw5_r.d.next = self.cw4.val();

        // Address compares, one stage before their use.
        self.eq2_4.d.next = (((self.addr3.val() ^ self.addr5.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv5.q.val();
        self.e2a_4.d.next = (((self.addr3.val() ^ self.addr5.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fva5.q.val();
        self.e2d_4.d.next = (((self.addr3.val() ^ self.addr5.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fvd5.q.val();
        self.eq3_4.d.next = (((self.addr3.val() ^ self.addr6.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv6.q.val();
        self.eq4_4.d.next = (((self.addr3.val() ^ self.addr7.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv7.q.val();
        self.m1_4.d.next = (((self.addr3.val() ^ self.addr4.val()) & self.address_mask.val())
            == self.address_zero.val())
            & self.fv4.q.val();
        self.m1_5.d.next = self.m1_4.q.val();
        self.ma_5.d.next = self.m1_5.d.val() & (self.ins5_r.q.val() | self.cw5_r.q.val());
        self.md_5.d.next = self.m1_5.d.val() & self.del5_r.q.val();
        self.sel_cur_p5.d.next =
            self.m1_5.d.val() & !((self.ins5_r.q.val() | self.cw5_r.q.val()) | self.del5_r.q.val());
        self.sel_cur_a5.d.next = self.m1_5.d.val() & !(self.ins5_r.q.val() | self.cw5_r.q.val());
        self.sel_pre5.d.next =
            !self.m1_5.d.val() & ((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val());
        self.sel_ram5.d.next =
            !self.m1_5.d.val() & !((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val());
        self.ma_x5.d.next =
            (self.m1_5.d.val() & (self.ins5_r.q.val() | self.cw5_r.q.val())) & !self.cw4.val();
        self.md_x5.d.next = (self.m1_5.d.val() & self.del5_r.q.val()) & !self.cw4.val();
        self.sel_cur_p_x5.d.next = (self.m1_5.d.val()
            & !((self.ins5_r.q.val() | self.cw5_r.q.val()) | self.del5_r.q.val()))
            & !self.cw4.val();
        self.sel_cur_a_x5.d.next =
            (self.m1_5.d.val() & !(self.ins5_r.q.val() | self.cw5_r.q.val())) & !self.cw4.val();
        self.sel_pre_x5.d.next = (!self.m1_5.d.val()
            & ((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val()))
            | self.cw4.val();
        self.sel_ram_x5.d.next = (!self.m1_5.d.val()
            & !((self.eq2_4.q.val() | self.eq3_4.q.val()) | self.eq4_4.q.val()))
            & !self.cw4.val();

        self.ins5.next = self.ins5_r.q.val();
        self.del5.next = self.del5_r.q.val();
        self.cw5.next = self.cw5_r.q.val();
        self.eq2.next = self.eq2_4.q.val();
        self.e2a.next = self.e2a_4.q.val();
        self.e2d.next = self.e2d_4.q.val();
        self.eq3.next = self.eq3_4.q.val();
        self.ma.next = self.ma_5.q.val();
        self.md.next = self.md_5.q.val();
        self.sel_cur_p.next = self.sel_cur_p5.q.val();
        self.sel_cur_a.next = self.sel_cur_a5.q.val();
        self.sel_pre.next = self.sel_pre5.q.val();
        self.sel_ram.next = self.sel_ram5.q.val();
        self.ma_x.next = self.ma_x5.q.val();
        self.md_x.next = self.md_x5.q.val();
        self.sel_cur_p_x.next = self.sel_cur_p_x5.q.val();
        self.sel_cur_a_x.next = self.sel_cur_a_x5.q.val();
        self.sel_pre_x.next = self.sel_pre_x5.q.val();
        self.sel_ram_x.next = self.sel_ram_x5.q.val();
        self.ma_next.next = self.ma_5.d.val();
        self.md_next.next = self.md_5.d.val();
        self.sel_cur_p_next.next = self.sel_cur_p5.d.val();
        self.sel_cur_a_next.next = self.sel_cur_a5.d.val();
        self.sel_pre_next.next = self.sel_pre5.d.val();

        if self.reset.val() {
            self.fv4.d.next = false;
            self.fv5.d.next = false;
            self.fva5.d.next = false;
            self.fvd5.d.next = false;
            self.fv6.d.next = false;
            self.fv7.d.next = false;
            self.ins5_r.d.next = false;
            self.del5_r.d.next = false;
            self.cw5_r.d.next = false;
            self.eq2_4.d.next = false;
            self.e2a_4.d.next = false;
            self.e2d_4.d.next = false;
            self.eq3_4.d.next = false;
            self.eq4_4.d.next = false;
            self.m1_4.d.next = false;
            self.m1_5.d.next = false;
            self.ma_5.d.next = false;
            self.md_5.d.next = false;
            self.sel_cur_p5.d.next = false;
            self.sel_cur_a5.d.next = false;
            self.sel_pre5.d.next = false;
            self.sel_ram5.d.next = false;
            self.ma_x5.d.next = false;
            self.md_x5.d.next = false;
            self.sel_cur_p_x5.d.next = false;
            self.sel_cur_a_x5.d.next = false;
            self.sel_pre_x5.d.next = false;
            self.sel_ram_x5.d.next = false;
        }
    }
}
