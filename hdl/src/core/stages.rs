//! The operation registers that travel beside the partitions' data path, one slot per
//! cycle from c1 to c5: whether a slot holds a request (`valid`), its op and tag, whether
//! it is a readback (`rb`) with its bank and address, whether that readback also writes
//! a bit (`wr`, `wdata`, to c3), and the key (c1). From them, one stage ahead of their
//! use, what every bank needs: c2's address source (`is_rb2`, `rb_addr2`: a readback's,
//! a recount slot's or a scrub slot's address), the RAM write enables and data of c4 (decided in c3),
//! the clear flag of c5 and the readback's one-hot bank select of c5.
//!
//! Latency: inputs of c0 -> c1 registers; c5's registers read by the control's
//! responses. No memory; no same-address behaviour (the partitions forward).
//!
//! Reset empties every slot (valid, readback, bit write) and drops the writes decided
//! for c4; op, tag, key and addresses keep whatever they hold, unused while empty.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct Stages<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// A request is accepted in c0: `op`, `tag`, `key` enter c1.
    pub accept: Signal<In, bool>,
    pub op: Signal<In, Bits<2>>,
    pub tag: Signal<In, Bits<8>>,
    pub key: Signal<In, Bits<W>>,
    /// A readback slot enters c1 (`rb_req` of the core), with its bank and address.
    pub rb_req: Signal<In, bool>,
    pub rb_bank: Signal<In, Bits<4>>,
    pub rb_addr: Signal<In, Bits<16>>,
    /// The readback also writes `rb_wdata` (dropped unless `idle`: the sweep owns the
    /// write ports while the core is busy).
    pub rb_write: Signal<In, bool>,
    pub rb_wdata: Signal<In, bool>,
    pub idle: Signal<In, bool>,
    /// From the sweep: its lead, its count, and whether it is the recount.
    pub sweep_lead: Signal<In, bool>,
    pub sweep_count: Signal<In, Bits<16>>,
    pub recount: Signal<In, bool>,
    /// A scrub slot in c1 (core/scrub.rs) and the address it reads.
    pub scrub_take1: Signal<In, bool>,
    pub scrub_addr1: Signal<In, Bits<16>>,
    /// The key, in c1.
    pub key1: Signal<Out, Bits<W>>,
    /// c2 holds a readback or a recount slot, and its address (bits >= b already 0).
    pub is_rb2: Signal<Out, bool>,
    pub rb_addr2: Signal<Out, Bits<16>>,
    /// RAM write enables (bit p: bank p) and data of c4, from flip-flops.
    pub write4: Signal<Out, Bits<16>>,
    pub wdata4: Signal<Out, bool>,
    /// `write4` and `wdata4` of the next cycle (what their registers load): the lanes'
    /// replica banks take lane 0's writes from copies of those registers (hdl/src/lanes).
    pub write4_next: Signal<Out, Bits<16>>,
    pub wdata4_next: Signal<Out, bool>,
    /// c5 holds a clear.
    pub clear5: Signal<Out, bool>,
    /// c5: a request, its tag, whether it is not a clear; a readback and its one-hot bank.
    pub valid5: Signal<Out, bool>,
    pub tag5: Signal<Out, Bits<8>>,
    pub not_clear5: Signal<Out, bool>,
    pub rb5: Signal<Out, bool>,
    pub rb_select5: Signal<Out, Bits<16>>,
    valid1: DFF<bool>,
    valid2: DFF<bool>,
    valid3: DFF<bool>,
    valid4: DFF<bool>,
    valid5_r: DFF<bool>,
    op1: DFF<Bits<2>>,
    op2: DFF<Bits<2>>,
    op3: DFF<Bits<2>>,
    op4: DFF<Bits<2>>,
    tag1: DFF<Bits<8>>,
    tag2: DFF<Bits<8>>,
    tag3: DFF<Bits<8>>,
    tag4: DFF<Bits<8>>,
    tag5_r: DFF<Bits<8>>,
    rb1: DFF<bool>,
    rb2: DFF<bool>,
    rb3: DFF<bool>,
    rb4: DFF<bool>,
    rb5_r: DFF<bool>,
    rb_address1: DFF<Bits<16>>,
    rb_address2: DFF<Bits<16>>,
    rb_bank1: DFF<Bits<4>>,
    rb_bank2: DFF<Bits<4>>,
    rb_bank3: DFF<Bits<4>>,
    rb_bank4: DFF<Bits<4>>,
    rb_select_5: DFF<Bits<16>>,
    // A readback slot that also writes (c1..c3), and the bit it writes.
    wr1: DFF<bool>,
    wr2: DFF<bool>,
    wr3: DFF<bool>,
    wdata1: DFF<bool>,
    wdata2: DFF<bool>,
    wdata3: DFF<bool>,
    key_1: DFF<Bits<W>>,
    // c2 takes its address from rb_address2: a readback, or a recount slot.
    addr_rb2: DFF<bool>,
    not_clear5_r: DFF<bool>,
    // Decoded one stage early, so the RAM write enables and data and the fill update
    // start at a register (the write path into the RAM's MASK/WE pins was the critical
    // path): bit p = bank p writes in c4 (every bank for an insert or the sweep, one for
    // a bit write), and the bit written (1 for an insert, 0 for the sweep).
    write_en4: DFF<Bits<16>>,
    write_data4: DFF<bool>,
    clear_at5: DFF<bool>,
    op_insert: Constant<Bits<2>>,
    op_clear: Constant<Bits<2>>,
    select_one: Constant<Bits<16>>,
    select_zero: Constant<Bits<16>>,
    select_all: Constant<Bits<16>>,
    address_mask: Constant<Bits<16>>,
}

impl<const W: usize> Stages<W> {
    /// The stages of a core with banks of 2^`bank_bits` bits.
    pub fn new(bank_bits: usize) -> Self {
        Stages {
            clock: Default::default(),
            reset: Default::default(),
            accept: Default::default(),
            op: Default::default(),
            tag: Default::default(),
            key: Default::default(),
            rb_req: Default::default(),
            rb_bank: Default::default(),
            rb_addr: Default::default(),
            rb_write: Default::default(),
            rb_wdata: Default::default(),
            idle: Default::default(),
            sweep_lead: Default::default(),
            sweep_count: Default::default(),
            recount: Default::default(),
            scrub_take1: Default::default(),
            scrub_addr1: Default::default(),
            key1: Default::default(),
            is_rb2: Default::default(),
            rb_addr2: Default::default(),
            write4: Default::default(),
            wdata4: Default::default(),
            write4_next: Default::default(),
            wdata4_next: Default::default(),
            clear5: Default::default(),
            valid5: Default::default(),
            tag5: Default::default(),
            not_clear5: Default::default(),
            rb5: Default::default(),
            rb_select5: Default::default(),
            valid1: Default::default(),
            valid2: Default::default(),
            valid3: Default::default(),
            valid4: Default::default(),
            valid5_r: Default::default(),
            op1: Default::default(),
            op2: Default::default(),
            op3: Default::default(),
            op4: Default::default(),
            tag1: Default::default(),
            tag2: Default::default(),
            tag3: Default::default(),
            tag4: Default::default(),
            tag5_r: Default::default(),
            rb1: Default::default(),
            rb2: Default::default(),
            rb3: Default::default(),
            rb4: Default::default(),
            rb5_r: Default::default(),
            rb_address1: Default::default(),
            rb_address2: Default::default(),
            rb_bank1: Default::default(),
            rb_bank2: Default::default(),
            rb_bank3: Default::default(),
            rb_bank4: Default::default(),
            rb_select_5: Default::default(),
            wr1: Default::default(),
            wr2: Default::default(),
            wr3: Default::default(),
            wdata1: Default::default(),
            wdata2: Default::default(),
            wdata3: Default::default(),
            key_1: Default::default(),
            addr_rb2: Default::default(),
            not_clear5_r: Default::default(),
            write_en4: Default::default(),
            write_data4: Default::default(),
            clear_at5: Default::default(),
            op_insert: Constant::new(1u64.into()),
            op_clear: Constant::new(2u64.into()),
            select_one: Constant::new(1u64.into()),
            select_zero: Constant::new(0u64.into()),
            select_all: Constant::new(0xffffu64.into()),
            address_mask: Constant::new(((1u64 << bank_bits) - 1).into()),
        }
    }
}

impl<const W: usize> Logic for Stages<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            valid1,
            valid2,
            valid3,
            valid4,
            valid5_r,
            op1,
            op2,
            op3,
            op4,
            tag1,
            tag2,
            tag3,
            tag4,
            tag5_r,
            rb1,
            rb2,
            rb3,
            rb4,
            rb5_r,
            rb_address1,
            rb_address2,
            rb_bank1,
            rb_bank2,
            rb_bank3,
            rb_bank4,
            rb_select_5,
            key_1,
            not_clear5_r,
            write_en4,
            write_data4,
            clear_at5,
            wr1,
            wr2,
            wr3,
            wdata1,
            wdata2,
            wdata3,
            addr_rb2
        );
        self.valid1.d.next = self.accept.val();
        self.op1.d.next = self.op.val();
        self.tag1.d.next = self.tag.val();
        self.key_1.d.next = self.key.val();
        self.rb1.d.next = self.rb_req.val();
        // Bits >= b are dropped here, so that the forwarding compare sees the RAM's address.
        self.rb_address1.d.next = self.rb_addr.val() & self.address_mask.val();
        self.rb_bank1.d.next = self.rb_bank.val();
        // A bit write while busy is dropped: the sweep owns the write ports until it ends.
        self.wr1.d.next = (self.rb_req.val() & self.rb_write.val()) & self.idle.val();
        self.wdata1.d.next = self.rb_wdata.val();
        self.wr2.d.next = self.wr1.q.val();
        self.wdata2.d.next = self.wdata1.q.val();
        self.wr3.d.next = self.wr2.q.val();
        self.wdata3.d.next = self.wdata2.q.val();
        self.valid2.d.next = self.valid1.q.val();
        self.op2.d.next = self.op1.q.val();
        self.tag2.d.next = self.tag1.q.val();
        self.rb2.d.next = self.rb1.q.val();
        // A recount slot takes c2 with the sweep's address (a readback issued while busy
        // reads whatever this gives: its bit is unspecified then), a scrub slot (only in
        // an empty slot, never while busy) with the scrub's.
        if self.sweep_lead.val() & self.recount.val() {
            self.rb_address2.d.next = self.sweep_count.val();
        } else if self.scrub_take1.val() {
            self.rb_address2.d.next = self.scrub_addr1.val() & self.address_mask.val();
        } else {
            self.rb_address2.d.next = self.rb_address1.q.val();
        }
        self.addr_rb2.d.next = (self.rb1.q.val() | self.scrub_take1.val())
            | (self.sweep_lead.val() & self.recount.val());
        self.rb_bank2.d.next = self.rb_bank1.q.val();
        self.valid3.d.next = self.valid2.q.val();
        self.op3.d.next = self.op2.q.val();
        self.tag3.d.next = self.tag2.q.val();
        self.rb3.d.next = self.rb2.q.val();
        self.rb_bank3.d.next = self.rb_bank2.q.val();
        self.valid4.d.next = self.valid3.q.val();
        self.op4.d.next = self.op3.q.val();
        self.tag4.d.next = self.tag3.q.val();
        self.rb4.d.next = self.rb3.q.val();
        self.rb_bank4.d.next = self.rb_bank3.q.val();
        self.valid5_r.d.next = self.valid4.q.val();
        self.tag5_r.d.next = self.tag4.q.val();
        self.rb5_r.d.next = self.rb4.q.val();
        self.not_clear5_r.d.next = self.op4.q.val() != self.op_clear.val();
        if self.rb4.q.val() {
            self.rb_select_5.d.next = self.select_one.val() << self.rb_bank4.q.val();
        } else {
            self.rb_select_5.d.next = self.select_zero.val();
        }
        // The RAM write enables and data of c4 (an insert or a clear's sweep: every bank; a
        // bit write: its bank; the recount writes nothing) decided in c3.
        if (self.valid3.q.val() & (self.op3.q.val() == self.op_insert.val()))
            | (self.sweep_lead.val() & !self.recount.val())
        {
            self.write_en4.d.next = self.select_all.val();
        } else if self.wr3.q.val() {
            self.write_en4.d.next = self.select_one.val() << self.rb_bank3.q.val();
        } else {
            self.write_en4.d.next = self.select_zero.val();
        }
        if self.wr3.q.val() {
            self.write_data4.d.next = self.wdata3.q.val();
        } else {
            self.write_data4.d.next = !self.sweep_lead.val();
        }
        self.clear_at5.d.next = self.valid4.q.val() & (self.op4.q.val() == self.op_clear.val());
        self.key1.next = self.key_1.q.val();
        self.is_rb2.next = self.addr_rb2.q.val();
        self.rb_addr2.next = self.rb_address2.q.val();
        self.write4.next = self.write_en4.q.val();
        self.wdata4.next = self.write_data4.q.val();
        self.clear5.next = self.clear_at5.q.val();
        self.valid5.next = self.valid5_r.q.val();
        self.tag5.next = self.tag5_r.q.val();
        self.not_clear5.next = self.not_clear5_r.q.val();
        self.rb5.next = self.rb5_r.q.val();
        self.rb_select5.next = self.rb_select_5.q.val();
        if self.reset.val() {
            self.valid1.d.next = false;
            self.valid2.d.next = false;
            self.valid3.d.next = false;
            self.valid4.d.next = false;
            self.valid5_r.d.next = false;
            self.rb1.d.next = false;
            self.rb2.d.next = false;
            self.rb3.d.next = false;
            self.rb4.d.next = false;
            self.rb5_r.d.next = false;
            self.rb_select_5.d.next = self.select_zero.val();
            self.write_en4.d.next = self.select_zero.val();
            self.clear_at5.d.next = false;
            self.wr1.d.next = false;
            self.wr2.d.next = false;
            self.wr3.d.next = false;
            self.addr_rb2.d.next = false;
        }
        self.write4_next.next = self.write_en4.d.val();
        self.wdata4_next.next = self.write_data4.d.val();
    }
}
