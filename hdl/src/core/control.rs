//! Control of the core: request admission (valid/ready with credits), the responses
//! and the readback result, composed with three blocks of its own: the per-stage
//! operation registers that travel beside the partitions' data path (stages.rs), the
//! clear sweep and the recount after reset (sweep.rs), and the response FIFO
//! (response_fifo.rs).
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
use crate::core::request_line::{RequestLine, FEISTEL_DELAY};
use crate::core::response_fifo::{depth_for, ResponseFifo, RESPONSE_FIFO_MAX_DEPTH};
use crate::core::scrub::Scrubber;
use crate::core::stages::Stages;
use crate::core::sweep::Sweep;
use crate::hash::feistel::{FeistelHash, FeistelNetwork};
use crate::ports::{Readback, Request, Response, Status};

crate::bundle! {
    /// What the control of lane 0 of `bloom_lanes` shows the query lanes (hdl/src/lanes):
    /// the banks' writes one cycle ahead (so that copies of the write registers can drive
    /// the replica banks in the same cycle as lane 0's own), and each response as it is
    /// registered in c6. A core on its own leaves these unread.
    LaneTap / LaneTapSink {
        /// The RAM write enables of the next cycle (c4), bit p for bank p.
        write_next: Out Bits<16>,
        /// The bit those writes write.
        wdata_next: Out bool,
        /// c6 holds a request's response (pushed into the response FIFO at its end).
        valid6: Out bool,
        /// That response's hit.
        hit6: Out bool,
    }
}

#[derive(LogicBlock)]
pub struct Control<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    pub req: Request<W>,
    pub resp: Response<W>,
    pub rb: Readback<W>,
    pub status: Status<W>,
    /// The core's `scrub_req` and `scrub_busy` (core/scrub.rs; the banks show the result).
    pub scrub_req: Signal<In, bool>,
    pub scrub_busy: Signal<Out, bool>,
    /// To every partition.
    pub banks: ToBanks<W>,
    /// To the lanes' query lanes (unread in a core on its own).
    pub lane_tap: LaneTap<W>,
    /// One-hot bank select of the readback in c5 (0 when c5 holds no readback).
    pub rb_select5: Signal<Out, Bits<16>>,
    // From the partitions.
    pub all_bits5: Signal<In, bool>,
    pub rb_bit5: Signal<In, bool>,
    ready: Signal<Local, bool>,
    accept: Signal<Local, bool>,
    popped: Signal<Local, bool>,
    line: RequestLine,
    /// The Feistel family's network (hash/feistel.rs), from the request's key in c0;
    /// without it, `stream` is 0.
    hash: FeistelHash<W>,
    stages: Stages<W>,
    sweep: Sweep,
    scrubber: Scrubber,
    // Thermometer count of responses outstanding (accepted, not yet popped):
    // bit i = more than i outstanding, so "FIFO full" is one flip-flop (bit depth - 1,
    // `outstanding_limit`); bits at and above the depth stay 0 (`outstanding_valid`).
    // Updated by AND/OR, not by an if: an if becomes a clock enable of accept ^ popped,
    // one more LUT and a slow enable route after the request inputs.
    outstanding: DFF<Bits<16>>,
    // All ones when a response is popped / a request accepted this cycle, else 0.
    popped_mask: Signal<Local, Bits<16>>,
    accept_mask: Signal<Local, Bits<16>>,
    // The next count if this cycle accepts a request, and if it does not.
    outstanding_if_accept: Signal<Local, Bits<16>>,
    outstanding_if_not: Signal<Local, Bits<16>>,
    // c6: the response, registered before the FIFO so that the AND over the banks'
    // bits is the only logic between the RAM output registers and a flip-flop.
    valid6: DFF<bool>,
    tag6: DFF<Bits<8>>,
    hit6: DFF<bool>,
    rb_valid6: DFF<bool>,
    rb_data6: DFF<bool>,
    fifo: ResponseFifo,
    op_clear: Constant<Bits<2>>,
    outstanding_zero: Constant<Bits<16>>,
    outstanding_all: Constant<Bits<16>>,
    outstanding_one: Constant<Bits<16>>,
    outstanding_limit: Constant<Bits<16>>,
    outstanding_valid: Constant<Bits<16>>,
}

impl<const W: usize> Control<W> {
    /// The control of banks of 2^`bank_bits` bits, whose counts land `count_delay` cycles
    /// after a plain core's (0 plain, 1 counting: timing.rs); `scrub`: the scrub is built.
    /// `scrub_every`: the scrub's period, if periodic. `network`: the Feistel family's
    /// network, which puts the request line's cycles in front of the stages.
    pub fn new(
        bank_bits: usize,
        count_delay: usize,
        scrub: bool,
        scrub_every: Option<u32>,
        network: Option<FeistelNetwork>,
    ) -> Self {
        let delay = if network.is_some() { FEISTEL_DELAY } else { 0 };
        let depth = depth_for(delay);
        Control {
            clock: Default::default(),
            reset: Default::default(),
            req: Default::default(),
            resp: Default::default(),
            rb: Default::default(),
            status: Default::default(),
            scrub_req: Default::default(),
            scrub_busy: Default::default(),
            banks: Default::default(),
            lane_tap: Default::default(),
            rb_select5: Default::default(),
            all_bits5: Default::default(),
            rb_bit5: Default::default(),
            ready: Default::default(),
            accept: Default::default(),
            popped: Default::default(),
            line: RequestLine::new(delay),
            hash: FeistelHash::new(network),
            stages: Stages::new(bank_bits),
            sweep: Sweep::new(bank_bits),
            scrubber: Scrubber::new(bank_bits, count_delay, scrub, scrub_every),
            outstanding: Default::default(),
            popped_mask: Default::default(),
            accept_mask: Default::default(),
            outstanding_if_accept: Default::default(),
            outstanding_if_not: Default::default(),
            valid6: Default::default(),
            tag6: Default::default(),
            hit6: Default::default(),
            rb_valid6: Default::default(),
            rb_data6: Default::default(),
            fifo: ResponseFifo::new(depth),
            op_clear: Constant::new(2u64.into()),
            outstanding_zero: Constant::new(0u64.into()),
            outstanding_all: Constant::new(0xffffu64.into()),
            outstanding_one: Constant::new(1u64.into()),
            outstanding_limit: Constant::new((1u64 << (depth - 1)).into()),
            outstanding_valid: Constant::new(((1u64 << depth) - 1).into()),
        }
    }
}

// `outstanding` is a thermometer with one bit per FIFO entry.
const _: () = assert!(RESPONSE_FIFO_MAX_DEPTH == 16 && depth_for(FEISTEL_DELAY) <= 16);

impl<const W: usize> Logic for Control<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            outstanding,
            valid6,
            tag6,
            hit6,
            rb_valid6,
            rb_data6
        );
        self.fifo.clock.next = self.clock.val();
        self.fifo.reset.next = self.reset.val();
        self.stages.clock.next = self.clock.val();
        self.stages.reset.next = self.reset.val();
        self.sweep.clock.next = self.clock.val();
        self.sweep.reset.next = self.reset.val();
        self.scrubber.clock.next = self.clock.val();
        self.scrubber.reset.next = self.reset.val();
        self.line.clock.next = self.clock.val();
        self.line.reset.next = self.reset.val();
        self.hash.clock.next = self.clock.val();
        self.hash.key.next = self.req.key.val();

        // Admission. busy = a clear in the request line, in c1, c2, c3 or sweeping.
        self.status.busy.next = !self.sweep.idle.val() | self.line.clear_ahead.val();
        // `ready` leaves reset out: every register `accept` feeds (valid1, clear1,
        // outstanding, idle) is overridden by reset anyway, so reset reaches them
        // through their reset pins only, not through the admission LUTs (a reset
        // routed from the far side of the chip into accept was the UP5K's critical
        // path). The port itself is low during reset.
        self.ready.next = !self.rb.req.val()
            & ((self.sweep.idle.val() & !self.line.clear_ahead.val())
                & ((self.outstanding.q.val() & self.outstanding_limit.val())
                    == self.outstanding_zero.val()));
        self.req.ready.next = self.ready.val() & !self.reset.val();
        self.accept.next = self.req.valid.val() & self.ready.val();

        // The request line (no cycles unless the hash needs them), then the operations'
        // stage registers, and the sweep. The key goes to the stages (and the units that
        // hash it) unlined: only the Feistel family lines requests, and its units take
        // the network's blocks instead.
        self.line.accept.next = self.accept.val();
        self.line.op.next = self.req.op.val();
        self.line.tag.next = self.req.tag.val();
        self.line.rb_req.next = self.rb.req.val();
        self.line.rb_bank.next = self.rb.bank.val();
        self.line.rb_addr.next = self.rb.addr.val();
        self.line.rb_write.next = self.rb.write.val();
        self.line.rb_wdata.next = self.rb.wdata.val();
        self.line.idle.next = self.sweep.idle.val() & !self.line.clear_ahead.val();
        self.stages.accept.next = self.line.accept_out.val();
        self.stages.op.next = self.line.op_out.val();
        self.stages.tag.next = self.line.tag_out.val();
        self.stages.key.next = self.req.key.val();
        self.stages.rb_req.next = self.line.rb_req_out.val();
        self.stages.rb_bank.next = self.line.rb_bank_out.val();
        self.stages.rb_addr.next = self.line.rb_addr_out.val();
        self.stages.rb_write.next = self.line.rb_write_out.val();
        self.stages.rb_wdata.next = self.line.rb_wdata_out.val();
        self.stages.idle.next = self.line.idle_out.val();
        self.stages.sweep_lead.next = self.sweep.lead.val();
        self.stages.sweep_count.next = self.sweep.count.val();
        self.stages.recount.next = self.sweep.recount.val();
        self.sweep.clear0.next =
            self.line.accept_out.val() & (self.line.op_out.val() == self.op_clear.val());

        // The scrub: free cycles (no request accepted, no readback, not busy; reset is the
        // scrubber's own) are its slots, in c1 given to the stages as a readback's address.
        self.scrubber.req.next = self.scrub_req.val();
        self.scrubber.free0.next =
            (!self.line.rb_req_out.val() & !self.line.accept_out.val()) & self.sweep.idle.val();
        self.scrubber.recount3.next = self.sweep.recount3.val();
        self.scrubber.idle.next = self.sweep.idle.val();
        self.scrub_busy.next = self.scrubber.busy.val();
        self.stages.scrub_take1.next = self.scrubber.take1.val();
        self.stages.scrub_addr1.next = self.scrubber.addr1.val();

        // To the partitions.
        self.banks.key1.next = self.stages.key1.val();
        self.banks.stream2.next = self.hash.stream.val();
        self.banks.is_rb2.next = self.stages.is_rb2.val();
        self.banks.rb_addr2.next = self.stages.rb_addr2.val();
        self.banks.write4.next = self.stages.write4.val();
        self.banks.wdata4.next = self.stages.wdata4.val();
        self.banks.clear5.next = self.stages.clear5.val();
        self.banks.counted4.next = self.scrubber.counted4.val();
        self.banks.scrub4.next = self.scrubber.scrub4.val();
        self.banks.ptr3.next = self.scrubber.ptr3.val();
        self.banks.scrub_zero5.next = self.scrubber.zero5.val();
        self.banks.scrub_finish.next = self.scrubber.finish.val();
        self.banks.power_up.next = self.scrubber.power_up.val();
        self.banks.sweep_en.next = self.sweep.sweeping.val();
        self.banks.sweep_en3.next = self.sweep.lead.val();
        self.banks.sweep_addr3.next = self.sweep.count.val();
        self.rb_select5.next = self.stages.rb_select5.val();
        self.lane_tap.write_next.next = self.stages.write4_next.val();
        self.lane_tap.wdata_next.next = self.stages.wdata4_next.val();
        self.lane_tap.valid6.next = self.valid6.q.val();
        self.lane_tap.hit6.next = self.hit6.q.val();

        // Responses (clear answers 0) and readback.
        self.valid6.d.next = self.stages.valid5.val();
        self.tag6.d.next = self.stages.tag5.val();
        self.hit6.d.next = self.all_bits5.val() & self.stages.not_clear5.val();
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
        self.outstanding.d.next = ((self.outstanding_if_accept.val() & self.accept_mask.val())
            | (self.outstanding_if_not.val() & !self.accept_mask.val()))
            & self.outstanding_valid.val();
        self.rb_valid6.d.next = self.stages.rb5.val();
        self.rb_data6.d.next = self.rb_bit5.val();
        self.rb.valid.next = self.rb_valid6.q.val();
        self.rb.data.next = self.rb_data6.q.val();

        if self.reset.val() {
            self.valid6.d.next = false;
            self.rb_valid6.d.next = false;
            self.outstanding.d.next = self.outstanding_zero.val();
        }
    }
}
