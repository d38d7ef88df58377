//! Control of the core: request admission (valid/ready with credits), the per-stage
//! operation registers (valid, op, tag, readback slot) that travel beside the
//! partitions' data path, the clear sweep, the readback result, and the response FIFO.
//!
//! Latency: request accepted in cycle 0 -> its hit registered at the end of cycle 5 ->
//! pushed into the FIFO at the end of cycle 6 -> `resp_valid` in cycle 7 (see core/top.rs
//! for the whole timing). A clear
//! accepted in cycle 0 keeps `busy` high, and `req_ready` low, in cycles 1 ..= 3 + 2^b:
//! it travels to c4 like any operation (so every older insert has written by then),
//! then writes address n of every bank to 0 in cycle 4 + n.
//! A readback slot (`rb_req`) with `rb_write` also writes `rb_wdata` into its bank in c4,
//! after its read in c3, like an insert writes its bits; it is dropped in c0 while busy
//! (the sweep owns the banks' write ports then).
//! Reset: after the last cycle r of a reset, the control recounts the banks: it starts
//! the clear sweep's machinery as if a clear had been accepted in cycle r, but in recount
//! mode the sweep writes nothing; instead its address goes to every bank's read port
//! through the readback slot of c2 (`rb_address2`), and the slot is flagged to the
//! partitions in c4 (`recount4`), whose fill counters (zeroed by the reset) count the
//! 1 bits read in c5. Bit writes are dropped while busy, so the recount is not raced. `busy` is high, and `req_ready` low, from the cycle after reset is first
//! high through cycle r + 2^b + 7, when the last slot has been counted: from then on
//! every fill counter equals the 1 bits of its bank (docs/core.md, "Reset").
//! No memory of its own; no same-address behaviour.
//!
//! Timing structure (why the registers below exist): `req_ready` is an AND of the
//! rb_req/reset inputs and three flip-flops (`idle`, bit 7 of `outstanding`, a
//! thermometer count of accepted-but-not-popped responses), so a request's acceptance
//! is one LUT after the inputs; every signal that drives a RAM write enable, the fill
//! counters or a clock enable starts at a flip-flop.
//!
//! Every register here is at most two LUT4 levels after flip-flops: the next state of
//! `outstanding` (and of the FIFO's occupancy) is written as "accepted ? (popped ? .. : ..)
//! : (popped ? .. : ..)" with both inner choices one LUT each, and `idle` as an AND of
//! one-LUT terms. Not only for these paths' sake: ABC maps for the design's deepest
//! path and then trades depth for area everywhere else, so one three-level path let it
//! rebuild the hash trees three and four levels deep (the UP5K critical path).

use rust_hdl::prelude::*;

use crate::core::partition::ToBanks;
use crate::core::response_fifo::{ResponseFifo, RESPONSE_FIFO_DEPTH};
use crate::ports::{Readback, Request, Response, Status};

#[derive(LogicBlock)]
pub struct Control<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub req: Request<W>,
    pub resp: Response<W>,
    pub rb: Readback<W>,
    pub status: Status<W>,
    /// To every partition.
    pub banks: ToBanks<W>,
    /// One-hot bank select of the readback in c5 (0 when c5 holds no readback).
    pub rb_select5: Signal<Out, Bits<16>>,
    // From the partitions.
    pub all_bits5: Signal<In, bool>,
    pub rb_bit5: Signal<In, bool>,
    ready: Signal<Local, bool>,
    accept: Signal<Local, bool>,
    popped: Signal<Local, bool>,
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
    rb_select_5: DFF<Bits<16>>,
    // A readback slot that also writes (c1..c3), and the bit it writes.
    wr1: DFF<bool>,
    wr2: DFF<bool>,
    wr3: DFF<bool>,
    wdata1: DFF<bool>,
    wdata2: DFF<bool>,
    wdata3: DFF<bool>,
    key_1: DFF<Bits<W>>,
    // Thermometer count of responses outstanding (accepted, not yet popped):
    // bit i = more than i outstanding, so "8 outstanding" is one flip-flop.
    // Updated by AND/OR, not by an if: an if becomes a clock enable of accept ^ popped,
    // one more LUT and a slow enable route after the request inputs.
    outstanding: DFF<Bits<8>>,
    // All ones when a response is popped / a request accepted this cycle, else 0.
    popped_mask: Signal<Local, Bits<8>>,
    accept_mask: Signal<Local, Bits<8>>,
    // The next count if this cycle accepts a request, and if it does not.
    outstanding_if_accept: Signal<Local, Bits<8>>,
    outstanding_if_not: Signal<Local, Bits<8>>,
    // c1 holds a clear (accepted in the cycle before).
    clear1: DFF<bool>,
    clear2: DFF<bool>,
    // No clear in c1, c2, c3 or the sweep: !busy, computed a cycle ahead.
    idle: DFF<bool>,
    // The sweep one cycle ahead of its writes (it starts when the clear is in c3):
    // sweep_lead(t) = sweeping(t+1).
    sweep_lead: DFF<bool>,
    sweep_count: DFF<Bits<16>>,
    // The sweep count's clock enable (sweep_lead | clear2), computed a cycle ahead:
    // a LUT in front of a clock enable costs a slow enable route on top.
    sweep_step: DFF<bool>,
    // The sweep is at its last address (computed a cycle ahead).
    sweep_at_last: DFF<bool>,
    sweeping: DFF<bool>,
    // The sweep is the recount after a reset (reads, no writes); set by reset, cleared
    // when the sweep ends.
    recount_mode: DFF<bool>,
    // c2 takes its address from rb_address2: a readback, or a recount slot.
    addr_rb2: DFF<bool>,
    // A recount slot in c2, c3, c4, c5.
    recount_slot2: DFF<bool>,
    recount_slot3: DFF<bool>,
    recount_slot4: DFF<bool>,
    recount_slot5: DFF<bool>,
    not_clear5: DFF<bool>,
    // c6: the response, registered before the FIFO so that the AND over the banks'
    // bits is the only logic between the RAM output registers and a flip-flop.
    valid6: DFF<bool>,
    tag6: DFF<Bits<8>>,
    hit6: DFF<bool>,
    rb_valid6: DFF<bool>,
    rb_data6: DFF<bool>,
    // Decoded one stage early, so the RAM write enables and data and the fill update
    // start at a register (the write path into the RAM's MASK/WE pins was the critical
    // path): bit p = bank p writes in c4 (every bank for an insert or the sweep, one for
    // a bit write), and the bit written (1 for an insert, 0 for the sweep).
    write_en4: DFF<Bits<16>>,
    write_data4: DFF<bool>,
    clear_at5: DFF<bool>,
    fifo: ResponseFifo,
    op_insert: Constant<Bits<2>>,
    op_clear: Constant<Bits<2>>,
    outstanding_zero: Constant<Bits<8>>,
    outstanding_all: Constant<Bits<8>>,
    outstanding_one: Constant<Bits<8>>,
    select_one: Constant<Bits<16>>,
    select_zero: Constant<Bits<16>>,
    select_all: Constant<Bits<16>>,
    sweep_before_last: Constant<Bits<16>>,
    sweep_one: Constant<Bits<16>>,
    sweep_zero: Constant<Bits<16>>,
    address_mask: Constant<Bits<16>>,
}

impl<const W: usize> Control<W> {
    pub fn new(bank_bits: usize) -> Self {
        Control {
            clock: Default::default(),
            reset: Default::default(),
            req: Default::default(),
            resp: Default::default(),
            rb: Default::default(),
            status: Default::default(),
            banks: Default::default(),
            rb_select5: Default::default(),
            all_bits5: Default::default(),
            rb_bit5: Default::default(),
            ready: Default::default(),
            accept: Default::default(),
            popped: Default::default(),
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
            rb_select_5: Default::default(),
            wr1: Default::default(),
            wr2: Default::default(),
            wr3: Default::default(),
            wdata1: Default::default(),
            wdata2: Default::default(),
            wdata3: Default::default(),
            key_1: Default::default(),
            outstanding: Default::default(),
            popped_mask: Default::default(),
            accept_mask: Default::default(),
            outstanding_if_accept: Default::default(),
            outstanding_if_not: Default::default(),
            clear1: Default::default(),
            clear2: Default::default(),
            idle: Default::default(),
            sweep_lead: Default::default(),
            sweep_count: Default::default(),
            sweep_step: Default::default(),
            sweep_at_last: Default::default(),
            sweeping: Default::default(),
            recount_mode: Default::default(),
            addr_rb2: Default::default(),
            recount_slot2: Default::default(),
            recount_slot3: Default::default(),
            recount_slot4: Default::default(),
            recount_slot5: Default::default(),
            not_clear5: Default::default(),
            valid6: Default::default(),
            tag6: Default::default(),
            hit6: Default::default(),
            rb_valid6: Default::default(),
            rb_data6: Default::default(),
            write_en4: Default::default(),
            write_data4: Default::default(),
            clear_at5: Default::default(),
            fifo: Default::default(),
            op_insert: Constant::new(1u64.into()),
            op_clear: Constant::new(2u64.into()),
            outstanding_zero: Constant::new(0u64.into()),
            outstanding_all: Constant::new(0xffu64.into()),
            outstanding_one: Constant::new(1u64.into()),
            select_one: Constant::new(1u64.into()),
            select_zero: Constant::new(0u64.into()),
            select_all: Constant::new(0xffffu64.into()),
            sweep_before_last: Constant::new(((1u64 << bank_bits) - 2).into()),
            sweep_one: Constant::new(1u64.into()),
            sweep_zero: Constant::new(0u64.into()),
            address_mask: Constant::new(((1u64 << bank_bits) - 1).into()),
        }
    }
}

// `outstanding` is a thermometer with one bit per FIFO entry.
const _: () = assert!(RESPONSE_FIFO_DEPTH == 8);

impl<const W: usize> Logic for Control<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            valid1,
            valid2,
            valid3,
            valid4,
            valid5,
            op1,
            op2,
            op3,
            op4,
            op5,
            tag1,
            tag2,
            tag3,
            tag4,
            tag5,
            rb1,
            rb2,
            rb3,
            rb4,
            rb5,
            rb_address1,
            rb_address2,
            rb_bank1,
            rb_bank2,
            rb_bank3,
            rb_bank4,
            rb_select_5,
            key_1,
            outstanding,
            clear1,
            clear2,
            idle,
            sweep_lead,
            sweep_count,
            sweep_step,
            sweeping,
            sweep_at_last,
            not_clear5,
            valid6,
            tag6,
            hit6,
            rb_valid6,
            rb_data6,
            write_en4,
            write_data4,
            clear_at5,
            wr1,
            wr2,
            wr3,
            wdata1,
            wdata2,
            wdata3,
            recount_mode,
            addr_rb2,
            recount_slot2,
            recount_slot3,
            recount_slot4,
            recount_slot5
        );
        self.fifo.clock.next = self.clock.val();
        self.fifo.reset.next = self.reset.val();

        // Admission. busy = a clear in c1, c2, c3 or sweeping = !idle.
        self.status.busy.next = !self.idle.q.val();
        // `ready` leaves reset out: every register `accept` feeds (valid1, clear1,
        // outstanding, idle) is overridden by reset anyway, so reset reaches them
        // through their reset pins only, not through the admission LUTs (a reset
        // routed from the far side of the chip into accept was the UP5K's critical
        // path). The port itself is low during reset.
        self.ready.next =
            !self.rb.req.val() & (self.idle.q.val() & !self.outstanding.q.val().get_bit(7));
        self.req.ready.next = self.ready.val() & !self.reset.val();
        self.accept.next = self.req.valid.val() & self.ready.val();

        // Stage registers.
        self.valid1.d.next = self.accept.val();
        self.op1.d.next = self.req.op.val();
        self.clear1.d.next = self.accept.val() & (self.req.op.val() == self.op_clear.val());
        self.tag1.d.next = self.req.tag.val();
        self.key_1.d.next = self.req.key.val();
        self.rb1.d.next = self.rb.req.val();
        // Bits >= b are dropped here, so that the forwarding compare sees the RAM's address.
        self.rb_address1.d.next = self.rb.addr.val() & self.address_mask.val();
        self.rb_bank1.d.next = self.rb.bank.val();
        // A bit write while busy is dropped: the sweep owns the write ports until it ends.
        self.wr1.d.next = (self.rb.req.val() & self.rb.write.val()) & self.idle.q.val();
        self.wdata1.d.next = self.rb.wdata.val();
        self.wr2.d.next = self.wr1.q.val();
        self.wdata2.d.next = self.wdata1.q.val();
        self.wr3.d.next = self.wr2.q.val();
        self.wdata3.d.next = self.wdata2.q.val();
        self.valid2.d.next = self.valid1.q.val();
        self.op2.d.next = self.op1.q.val();
        self.tag2.d.next = self.tag1.q.val();
        self.rb2.d.next = self.rb1.q.val();
        // A recount slot takes c2 with the sweep's address (a readback issued while busy
        // reads whatever this gives: its bit is unspecified then).
        if self.sweep_lead.q.val() & self.recount_mode.q.val() {
            self.rb_address2.d.next = self.sweep_count.q.val();
        } else {
            self.rb_address2.d.next = self.rb_address1.q.val();
        }
        self.addr_rb2.d.next =
            self.rb1.q.val() | (self.sweep_lead.q.val() & self.recount_mode.q.val());
        self.recount_slot2.d.next = self.sweep_lead.q.val() & self.recount_mode.q.val();
        self.recount_slot3.d.next = self.recount_slot2.q.val();
        self.recount_slot4.d.next = self.recount_slot3.q.val();
        self.recount_slot5.d.next = self.recount_slot4.q.val();
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
        self.not_clear5.d.next = self.op4.q.val() != self.op_clear.val();
        if self.rb4.q.val() {
            self.rb_select_5.d.next = self.select_one.val() << self.rb_bank4.q.val();
        } else {
            self.rb_select_5.d.next = self.select_zero.val();
        }
        self.clear2.d.next = self.clear1.q.val();

        // To the partitions.
        self.banks.key1.next = self.key_1.q.val();
        self.banks.is_rb2.next = self.addr_rb2.q.val();
        self.banks.rb_addr2.next = self.rb_address2.q.val();
        // The RAM write enables and data of c4 (an insert or a clear's sweep: every bank; a
        // bit write: its bank; the recount writes nothing) decided in c3.
        if (self.valid3.q.val() & (self.op3.q.val() == self.op_insert.val()))
            | (self.sweep_lead.q.val() & !self.recount_mode.q.val())
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
            self.write_data4.d.next = !self.sweep_lead.q.val();
        }
        self.clear_at5.d.next = self.valid4.q.val() & (self.op4.q.val() == self.op_clear.val());
        self.banks.write4.next = self.write_en4.q.val();
        self.banks.wdata4.next = self.write_data4.q.val();
        self.banks.clear5.next = self.clear_at5.q.val();
        self.banks.recount4.next = self.recount_slot4.q.val();
        self.banks.sweep_en.next = self.sweeping.q.val();
        self.banks.sweep_en3.next = self.sweep_lead.q.val();
        self.banks.sweep_addr3.next = self.sweep_count.q.val();
        self.rb_select5.next = self.rb_select_5.q.val();

        // Clear sweep: writes when the clear reaches c4 (the write stage), so its lead
        // starts with the clear in c3. The count runs on past the last address once the
        // sweep ends; the next sweep restarts it at 0.
        // The count is not reset: the clear reloads it before every sweep, and it is
        // not used outside one.
        if self.sweep_step.q.val() {
            if self.clear2.q.val() {
                self.sweep_count.d.next = self.sweep_zero.val();
            } else {
                self.sweep_count.d.next = self.sweep_count.q.val() + self.sweep_one.val();
            }
        }
        // Written as logic, not as conditional loads: a load is a clock enable, and on
        // iCE40 a flip-flop's synchronous reset acts only when enabled, so the reset
        // (and the sweep's end) went through two LUT levels into the enable. As logic,
        // each next value is one LUT and the reset reaches the flip-flop's own reset.
        self.sweep_lead.d.next =
            self.clear2.q.val() | (self.sweep_lead.q.val() & !self.sweep_at_last.q.val());
        self.recount_mode.d.next =
            self.recount_mode.q.val() & !(self.sweep_lead.q.val() & self.sweep_at_last.q.val());
        self.sweep_at_last.d.next = (self.sweep_lead.q.val() & !self.sweep_at_last.q.val())
            & ((self.sweep_count.q.val() & self.address_mask.val())
                == self.sweep_before_last.val());
        self.sweep_step.d.next = (self.clear1.q.val() | self.clear2.q.val())
            | (self.sweep_lead.q.val() & !self.sweep_at_last.q.val());
        self.sweeping.d.next = self.sweep_lead.q.val();
        // Busy also until the recount's last slot has been counted.
        self.idle.d.next = (!(self.accept.val() & (self.req.op.val() == self.op_clear.val()))
            & !((self.clear1.q.val() | self.clear2.q.val()) | self.sweep_lead.q.val()))
            & !((self.recount_slot2.q.val() | self.recount_slot3.q.val())
                | (self.recount_slot4.q.val() | self.recount_slot5.q.val()));

        // Responses (clear answers 0) and readback.
        self.valid6.d.next = self.valid5.q.val();
        self.tag6.d.next = self.tag5.q.val();
        self.hit6.d.next = self.all_bits5.val() & self.not_clear5.q.val();
        self.fifo.push.next = self.valid6.q.val();
        self.fifo.push_hit.next = self.hit6.q.val();
        self.fifo.push_tag.next = self.tag6.q.val();
        self.fifo.pop.next = self.resp.ready.val();
        self.resp.valid.next = self.fifo.out_valid.val();
        self.resp.hit.next = self.fifo.out_hit.val();
        self.resp.tag.next = self.fifo.out_tag.val();
        self.popped.next = self.fifo.out_valid.val() & self.resp.ready.val();
        if self.popped.val() {
            self.popped_mask.next = self.outstanding_all.val();
        } else {
            self.popped_mask.next = self.outstanding_zero.val();
        }
        if self.accept.val() {
            self.accept_mask.next = self.outstanding_all.val();
        } else {
            self.accept_mask.next = self.outstanding_zero.val();
        }
        self.outstanding_if_accept.next = (self.outstanding.q.val() & self.popped_mask.val())
            | (((self.outstanding.q.val() << self.outstanding_one.val())
                | self.outstanding_one.val())
                & !self.popped_mask.val());
        self.outstanding_if_not.next = ((self.outstanding.q.val() >> self.outstanding_one.val())
            & self.popped_mask.val())
            | (self.outstanding.q.val() & !self.popped_mask.val());
        self.outstanding.d.next = (self.outstanding_if_accept.val() & self.accept_mask.val())
            | (self.outstanding_if_not.val() & !self.accept_mask.val());
        self.rb_valid6.d.next = self.rb5.q.val();
        self.rb_data6.d.next = self.rb_bit5.val();
        self.rb.valid.next = self.rb_valid6.q.val();
        self.rb.data.next = self.rb_data6.q.val();

        if self.reset.val() {
            self.valid1.d.next = false;
            self.valid2.d.next = false;
            self.valid3.d.next = false;
            self.valid4.d.next = false;
            self.valid5.d.next = false;
            self.valid6.d.next = false;
            self.rb1.d.next = false;
            self.rb2.d.next = false;
            self.rb3.d.next = false;
            self.rb4.d.next = false;
            self.rb5.d.next = false;
            self.rb_select_5.d.next = self.select_zero.val();
            self.rb_valid6.d.next = false;
            self.write_en4.d.next = self.select_zero.val();
            self.clear_at5.d.next = false;
            self.wr1.d.next = false;
            self.wr2.d.next = false;
            self.wr3.d.next = false;
            // The recount starts like a clear accepted in the reset's last cycle.
            self.clear1.d.next = true;
            self.clear2.d.next = false;
            self.recount_mode.d.next = true;
            self.addr_rb2.d.next = false;
            self.recount_slot2.d.next = false;
            self.recount_slot3.d.next = false;
            self.recount_slot4.d.next = false;
            self.recount_slot5.d.next = false;
            self.idle.d.next = false;
            self.sweep_step.d.next = false;
            self.outstanding.d.next = self.outstanding_zero.val();
            self.sweep_lead.d.next = false;
            self.sweeping.d.next = false;
            self.sweep_at_last.d.next = false;
        }
    }
}
