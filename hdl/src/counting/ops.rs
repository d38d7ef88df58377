//! Counting operations: what a counting core's partitions need to know about each slot
//! beyond what the plain control tells them (contract §7.2, §7.8).
//!
//! The plain control (core/control.rs) admits requests, runs the clear sweep, the readback
//! and the recount, and answers; it treats op 3 as a query. This block rides beside it:
//! it watches the same request and readback inputs (`accept` = req_valid & req_ready,
//! so it accepts exactly what the control accepts) and carries, stage by stage, whether
//! the slot is an insert, a delete, a counter write (a readback with rb_write, bank and
//! value), or any slot that reads an address (a request or a readback: its value may be
//! forwarded to the slots behind it). Everything the partitions get is a flip-flop in
//! c4, like the control's write enables (and two of c3, for the partitions' own
//! registers of c4).
//!
//! It also carries the control's readback bank selection of c5 into c6 (`rb_select6`),
//! where the core chooses `counter_rdata` among the banks' registered counters of c6, in
//! the cycle the control presents `rb_valid`.
//!
//! Latency: request or readback in c0 -> flags in c4; bank selection in c5 -> c6.
//! Reset clears every stage (the slots in flight are cancelled, as in the control).
//! No memory; no same-address behaviour.

use rust_hdl::prelude::*;

crate::bundle! {
    /// What the counting operations send every counting partition, flip-flops of c4.
    FromOps / ToCounters {
        /// c3 holds a request or a readback slot (a value the slots behind may need),
        /// and whether it is a delete: each partition registers its own flag of c4
        /// from them.
        slot3: In bool,
        del3: In bool,
        /// c4 holds an insert.
        ins4: In bool,
        /// c4 holds a delete (op 3).
        del4: In bool,
        /// Bit p: c4 holds a counter write into bank p.
        cw4: In Bits<16>,
        /// The value the counter write of c4 writes (all 8 bits; the partition keeps c).
        cwd4: In Bits<8>,
        /// cwd4 - 1 (its low c bits are those of the counter's value - 1 unless they are 0).
        cwd_dec4: In Bits<8>,
    }
}

#[derive(LogicBlock)]
pub struct CountOps<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// A request is accepted this cycle (req_valid & req_ready).
    pub accept: Signal<In, bool>,
    pub op: Signal<In, Bits<2>>,
    pub rb_req: Signal<In, bool>,
    pub rb_write: Signal<In, bool>,
    pub rb_bank: Signal<In, Bits<4>>,
    pub rb_wcount: Signal<In, Bits<8>>,
    /// The control's busy: counter writes issued meanwhile are dropped, as bit writes are.
    pub busy: Signal<In, bool>,
    /// The bank a readback in c5 reads (bit p: bank p), the control's.
    pub rb_select5: Signal<In, Bits<16>>,
    /// The same for the readback in c6 (answered in this cycle).
    pub rb_select6: Signal<Out, Bits<16>>,
    pub banks: ToCounters<W>,
    slot1: DFF<bool>,
    slot2: DFF<bool>,
    slot3: DFF<bool>,
    ins1: DFF<bool>,
    ins2: DFF<bool>,
    ins3: DFF<bool>,
    ins4: DFF<bool>,
    del1: DFF<bool>,
    del2: DFF<bool>,
    del3: DFF<bool>,
    del4: DFF<bool>,
    cw1: DFF<bool>,
    cw2: DFF<bool>,
    cw3: DFF<bool>,
    cw4: DFF<Bits<16>>,
    bank1: DFF<Bits<4>>,
    bank2: DFF<Bits<4>>,
    bank3: DFF<Bits<4>>,
    cwd1: DFF<Bits<8>>,
    cwd2: DFF<Bits<8>>,
    cwd3: DFF<Bits<8>>,
    cwd4: DFF<Bits<8>>,
    cwd_dec4: DFF<Bits<8>>,
    select6: DFF<Bits<16>>,
    op_insert: Constant<Bits<2>>,
    op_delete: Constant<Bits<2>>,
    select_one: Constant<Bits<16>>,
    select_zero: Constant<Bits<16>>,
    byte_one: Constant<Bits<8>>,
}

impl<const W: usize> Default for CountOps<W> {
    fn default() -> Self {
        CountOps {
            clock: Default::default(),
            reset: Default::default(),
            accept: Default::default(),
            op: Default::default(),
            rb_req: Default::default(),
            rb_write: Default::default(),
            rb_bank: Default::default(),
            rb_wcount: Default::default(),
            busy: Default::default(),
            rb_select5: Default::default(),
            rb_select6: Default::default(),
            banks: Default::default(),
            slot1: Default::default(),
            slot2: Default::default(),
            slot3: Default::default(),
            ins1: Default::default(),
            ins2: Default::default(),
            ins3: Default::default(),
            ins4: Default::default(),
            del1: Default::default(),
            del2: Default::default(),
            del3: Default::default(),
            del4: Default::default(),
            cw1: Default::default(),
            cw2: Default::default(),
            cw3: Default::default(),
            cw4: Default::default(),
            bank1: Default::default(),
            bank2: Default::default(),
            bank3: Default::default(),
            cwd1: Default::default(),
            cwd2: Default::default(),
            cwd3: Default::default(),
            cwd4: Default::default(),
            cwd_dec4: Default::default(),
            select6: Default::default(),
            op_insert: Constant::new(1u64.into()),
            op_delete: Constant::new(3u64.into()),
            select_one: Constant::new(1u64.into()),
            select_zero: Constant::new(0u64.into()),
            byte_one: Constant::new(1u64.into()),
        }
    }
}

impl<const W: usize> Logic for CountOps<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, slot1, slot2, slot3, ins1, ins2, ins3, ins4, del1, del2, del3, del4, cw1,
            cw2, cw3, cw4, bank1, bank2, bank3, cwd1, cwd2, cwd3, cwd4, cwd_dec4, select6
        );
        self.slot1.d.next = self.accept.val() | self.rb_req.val();
        self.ins1.d.next = self.accept.val() & (self.op.val() == self.op_insert.val());
        self.del1.d.next = self.accept.val() & (self.op.val() == self.op_delete.val());
        self.cw1.d.next = (self.rb_req.val() & self.rb_write.val()) & !self.busy.val();
        self.bank1.d.next = self.rb_bank.val();
        self.cwd1.d.next = self.rb_wcount.val();
        self.slot2.d.next = self.slot1.q.val();
        self.ins2.d.next = self.ins1.q.val();
        self.del2.d.next = self.del1.q.val();
        self.cw2.d.next = self.cw1.q.val();
        self.bank2.d.next = self.bank1.q.val();
        self.cwd2.d.next = self.cwd1.q.val();
        self.slot3.d.next = self.slot2.q.val();
        self.ins3.d.next = self.ins2.q.val();
        self.del3.d.next = self.del2.q.val();
        self.cw3.d.next = self.cw2.q.val();
        self.bank3.d.next = self.bank2.q.val();
        self.cwd3.d.next = self.cwd2.q.val();
        self.ins4.d.next = self.ins3.q.val();
        self.del4.d.next = self.del3.q.val();
        if self.cw3.q.val() {
            self.cw4.d.next = self.select_one.val() << self.bank3.q.val();
        } else {
            self.cw4.d.next = self.select_zero.val();
        }
        self.cwd4.d.next = self.cwd3.q.val();
        self.cwd_dec4.d.next = self.cwd3.q.val() - self.byte_one.val();
        self.banks.slot3.next = self.slot3.q.val();
        self.banks.del3.next = self.del3.q.val();
        self.banks.ins4.next = self.ins4.q.val();
        self.banks.del4.next = self.del4.q.val();
        self.banks.cw4.next = self.cw4.q.val();
        self.banks.cwd4.next = self.cwd4.q.val();
        self.banks.cwd_dec4.next = self.cwd_dec4.q.val();
        self.select6.d.next = self.rb_select5.val();
        self.rb_select6.next = self.select6.q.val();
        if self.reset.val() {
            self.slot1.d.next = false;
            self.slot2.d.next = false;
            self.slot3.d.next = false;
            self.ins1.d.next = false;
            self.ins2.d.next = false;
            self.ins3.d.next = false;
            self.ins4.d.next = false;
            self.del1.d.next = false;
            self.del2.d.next = false;
            self.del3.d.next = false;
            self.del4.d.next = false;
            self.cw1.d.next = false;
            self.cw2.d.next = false;
            self.cw3.d.next = false;
            self.cw4.d.next = self.select_zero.val();
        }
    }
}
