//! Control of the core: request admission (valid/ready with credits), the per-stage
//! operation registers (valid, op, tag, readback slot) that travel beside the
//! partitions' data path, the clear sweep, the readback result, and the response FIFO.
//!
//! Latency: request accepted in cycle 0 -> its response pushed into the FIFO at the end
//! of cycle 5 -> `resp_valid` in cycle 6 (see core.rs for the whole timing). A clear
//! accepted in cycle 0 keeps `busy` high, and `req_ready` low, in cycles 1 ..= 3 + 2^b:
//! it travels to c4 like any operation (so every older insert has written by then),
//! then writes address n of every bank to 0 in cycle 4 + n.
//! No memory of its own; no same-address behaviour.

use rust_hdl::prelude::*;

use crate::response_fifo::{ResponseFifo, RESPONSE_FIFO_DEPTH};

#[derive(LogicBlock)]
pub struct Control<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub req_valid: Signal<In, bool>,
    pub req_ready: Signal<Out, bool>,
    pub req_op: Signal<In, Bits<2>>,
    pub req_key: Signal<In, Bits<W>>,
    pub req_tag: Signal<In, Bits<8>>,
    pub resp_valid: Signal<Out, bool>,
    pub resp_ready: Signal<In, bool>,
    pub resp_hit: Signal<Out, bool>,
    pub resp_tag: Signal<Out, Bits<8>>,
    pub rb_req: Signal<In, bool>,
    pub rb_bank: Signal<In, Bits<4>>,
    pub rb_addr: Signal<In, Bits<16>>,
    pub rb_valid: Signal<Out, bool>,
    pub rb_data: Signal<Out, bool>,
    pub busy: Signal<Out, bool>,
    // To the partitions.
    pub key1: Signal<Out, Bits<W>>,
    pub is_rb2: Signal<Out, bool>,
    pub rb_addr2: Signal<Out, Bits<16>>,
    pub insert4: Signal<Out, bool>,
    pub insert5: Signal<Out, bool>,
    pub clear5: Signal<Out, bool>,
    pub sweep_en: Signal<Out, bool>,
    pub sweep_addr: Signal<Out, Bits<16>>,
    pub rb_bank5: Signal<Out, Bits<4>>,
    // From the partitions.
    pub all_bits5: Signal<In, bool>,
    pub rb_bit5: Signal<In, bool>,
    ready: Signal<Local, bool>,
    accept: Signal<Local, bool>,
    popped: Signal<Local, bool>,
    clearing: Signal<Local, bool>,
    valid1: DFF<bool>,
    valid2: DFF<bool>,
    valid3: DFF<bool>,
    valid4: DFF<bool>,
    valid5: DFF<bool>,
    op1: DFF<Bits<2>>,
    op2: DFF<Bits<2>>,
    op3: DFF<Bits<2>>,
    op4: DFF<Bits<2>>,
    op5: DFF<Bits<2>>,
    tag1: DFF<Bits<8>>,
    tag2: DFF<Bits<8>>,
    tag3: DFF<Bits<8>>,
    tag4: DFF<Bits<8>>,
    tag5: DFF<Bits<8>>,
    rb1: DFF<bool>,
    rb2: DFF<bool>,
    rb3: DFF<bool>,
    rb4: DFF<bool>,
    rb5: DFF<bool>,
    rb_address1: DFF<Bits<16>>,
    rb_address2: DFF<Bits<16>>,
    rb_bank1: DFF<Bits<4>>,
    rb_bank2: DFF<Bits<4>>,
    rb_bank3: DFF<Bits<4>>,
    rb_bank4: DFF<Bits<4>>,
    rb_bank_5: DFF<Bits<4>>,
    key_1: DFF<Bits<W>>,
    credits: DFF<Bits<4>>,
    sweeping: DFF<bool>,
    sweep_count: DFF<Bits<16>>,
    rb_valid6: DFF<bool>,
    rb_data6: DFF<bool>,
    // Decoded one stage early, so the RAM write enable and the fill update start at a
    // register (the write path into the RAM's MASK/WE pins was the critical path).
    insert_at4: DFF<bool>,
    insert_at5: DFF<bool>,
    clear_at5: DFF<bool>,
    fifo: ResponseFifo,
    op_insert: Constant<Bits<2>>,
    op_clear: Constant<Bits<2>>,
    credit_limit: Constant<Bits<4>>,
    credit_one: Constant<Bits<4>>,
    credit_zero: Constant<Bits<4>>,
    sweep_last: Constant<Bits<16>>,
    sweep_one: Constant<Bits<16>>,
    sweep_zero: Constant<Bits<16>>,
    address_mask: Constant<Bits<16>>,
}

impl<const W: usize> Control<W> {
    pub fn new(bank_bits: usize) -> Self {
        Control {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_op: Default::default(),
            req_key: Default::default(),
            req_tag: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_hit: Default::default(),
            resp_tag: Default::default(),
            rb_req: Default::default(),
            rb_bank: Default::default(),
            rb_addr: Default::default(),
            rb_valid: Default::default(),
            rb_data: Default::default(),
            busy: Default::default(),
            key1: Default::default(),
            is_rb2: Default::default(),
            rb_addr2: Default::default(),
            insert4: Default::default(),
            insert5: Default::default(),
            clear5: Default::default(),
            sweep_en: Default::default(),
            sweep_addr: Default::default(),
            rb_bank5: Default::default(),
            all_bits5: Default::default(),
            rb_bit5: Default::default(),
            ready: Default::default(),
            accept: Default::default(),
            popped: Default::default(),
            clearing: Default::default(),
            valid1: Default::default(),
            valid2: Default::default(),
            valid3: Default::default(),
            valid4: Default::default(),
            valid5: Default::default(),
            op1: Default::default(),
            op2: Default::default(),
            op3: Default::default(),
            op4: Default::default(),
            op5: Default::default(),
            tag1: Default::default(),
            tag2: Default::default(),
            tag3: Default::default(),
            tag4: Default::default(),
            tag5: Default::default(),
            rb1: Default::default(),
            rb2: Default::default(),
            rb3: Default::default(),
            rb4: Default::default(),
            rb5: Default::default(),
            rb_address1: Default::default(),
            rb_address2: Default::default(),
            rb_bank1: Default::default(),
            rb_bank2: Default::default(),
            rb_bank3: Default::default(),
            rb_bank4: Default::default(),
            rb_bank_5: Default::default(),
            key_1: Default::default(),
            credits: Default::default(),
            sweeping: Default::default(),
            sweep_count: Default::default(),
            rb_valid6: Default::default(),
            rb_data6: Default::default(),
            insert_at4: Default::default(),
            insert_at5: Default::default(),
            clear_at5: Default::default(),
            fifo: Default::default(),
            op_insert: Constant::new(1u64.into()),
            op_clear: Constant::new(2u64.into()),
            credit_limit: Constant::new((RESPONSE_FIFO_DEPTH as u64).into()),
            credit_one: Constant::new(1u64.into()),
            credit_zero: Constant::new(0u64.into()),
            sweep_last: Constant::new(((1u64 << bank_bits) - 1).into()),
            sweep_one: Constant::new(1u64.into()),
            sweep_zero: Constant::new(0u64.into()),
            address_mask: Constant::new(((1u64 << bank_bits) - 1).into()),
        }
    }
}

impl<const W: usize> Logic for Control<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, valid1, valid2, valid3, valid4, valid5, op1, op2, op3, op4, op5, tag1,
            tag2, tag3, tag4, tag5, rb1, rb2, rb3, rb4, rb5, rb_address1, rb_address2, rb_bank1,
            rb_bank2, rb_bank3, rb_bank4, rb_bank_5, key_1, credits, sweeping, sweep_count,
            rb_valid6, rb_data6, insert_at4, insert_at5, clear_at5
        );
        self.fifo.clock.next = self.clock.val();
        self.fifo.reset.next = self.reset.val();

        // Admission.
        self.clearing.next = ((self.valid1.q.val() & (self.op1.q.val() == self.op_clear.val()))
            | (self.valid2.q.val() & (self.op2.q.val() == self.op_clear.val())))
            | ((self.valid3.q.val() & (self.op3.q.val() == self.op_clear.val()))
                | self.sweeping.q.val());
        self.busy.next = self.clearing.val();
        self.ready.next = (!self.reset.val() & !self.rb_req.val())
            & (!self.clearing.val() & (self.credits.q.val() < self.credit_limit.val()));
        self.req_ready.next = self.ready.val();
        self.accept.next = self.req_valid.val() & self.ready.val();

        // Stage registers.
        self.valid1.d.next = self.accept.val();
        self.op1.d.next = self.req_op.val();
        self.tag1.d.next = self.req_tag.val();
        self.key_1.d.next = self.req_key.val();
        self.rb1.d.next = self.rb_req.val();
        // Bits >= b are dropped here, so that the forwarding compare sees the RAM's address.
        self.rb_address1.d.next = self.rb_addr.val() & self.address_mask.val();
        self.rb_bank1.d.next = self.rb_bank.val();
        self.valid2.d.next = self.valid1.q.val();
        self.op2.d.next = self.op1.q.val();
        self.tag2.d.next = self.tag1.q.val();
        self.rb2.d.next = self.rb1.q.val();
        self.rb_address2.d.next = self.rb_address1.q.val();
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
        self.valid5.d.next = self.valid4.q.val();
        self.op5.d.next = self.op4.q.val();
        self.tag5.d.next = self.tag4.q.val();
        self.rb5.d.next = self.rb4.q.val();
        self.rb_bank_5.d.next = self.rb_bank4.q.val();

        // To the partitions.
        self.key1.next = self.key_1.q.val();
        self.is_rb2.next = self.rb2.q.val();
        self.rb_addr2.next = self.rb_address2.q.val();
        self.insert_at4.d.next = self.valid3.q.val() & (self.op3.q.val() == self.op_insert.val());
        self.insert_at5.d.next = self.insert_at4.q.val();
        self.clear_at5.d.next = self.valid4.q.val() & (self.op4.q.val() == self.op_clear.val());
        self.insert4.next = self.insert_at4.q.val();
        self.insert5.next = self.insert_at5.q.val();
        self.clear5.next = self.clear_at5.q.val();
        self.sweep_en.next = self.sweeping.q.val();
        self.sweep_addr.next = self.sweep_count.q.val();
        self.rb_bank5.next = self.rb_bank_5.q.val();

        // Clear sweep: starts when the clear reaches c4 (the write stage).
        if self.sweeping.q.val() {
            if self.sweep_count.q.val() == self.sweep_last.val() {
                self.sweeping.d.next = false;
                self.sweep_count.d.next = self.sweep_zero.val();
            } else {
                self.sweep_count.d.next = self.sweep_count.q.val() + self.sweep_one.val();
            }
        }
        if self.valid3.q.val() & (self.op3.q.val() == self.op_clear.val()) {
            self.sweeping.d.next = true;
            self.sweep_count.d.next = self.sweep_zero.val();
        }

        // Responses (clear answers 0) and readback.
        self.fifo.push.next = self.valid5.q.val();
        self.fifo.push_hit.next =
            self.all_bits5.val() & (self.op5.q.val() != self.op_clear.val());
        self.fifo.push_tag.next = self.tag5.q.val();
        self.fifo.pop.next = self.resp_ready.val();
        self.resp_valid.next = self.fifo.out_valid.val();
        self.resp_hit.next = self.fifo.out_hit.val();
        self.resp_tag.next = self.fifo.out_tag.val();
        self.popped.next = self.fifo.out_valid.val() & self.resp_ready.val();
        if self.accept.val() & !self.popped.val() {
            self.credits.d.next = self.credits.q.val() + self.credit_one.val();
        }
        if !self.accept.val() & self.popped.val() {
            self.credits.d.next = self.credits.q.val() - self.credit_one.val();
        }
        self.rb_valid6.d.next = self.rb5.q.val();
        self.rb_data6.d.next = self.rb5.q.val() & self.rb_bit5.val();
        self.rb_valid.next = self.rb_valid6.q.val();
        self.rb_data.next = self.rb_data6.q.val();

        if self.reset.val() {
            self.valid1.d.next = false;
            self.valid2.d.next = false;
            self.valid3.d.next = false;
            self.valid4.d.next = false;
            self.valid5.d.next = false;
            self.rb1.d.next = false;
            self.rb2.d.next = false;
            self.rb3.d.next = false;
            self.rb4.d.next = false;
            self.rb5.d.next = false;
            self.rb_valid6.d.next = false;
            self.insert_at4.d.next = false;
            self.insert_at5.d.next = false;
            self.clear_at5.d.next = false;
            self.credits.d.next = self.credit_zero.val();
            self.sweeping.d.next = false;
            self.sweep_count.d.next = self.sweep_zero.val();
        }
    }
}
