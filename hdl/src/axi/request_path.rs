//! `RequestPath`: requests into the core. A two-entry FIFO
//! (`pair_fifo::PairControl` and a `PairReg` per field) between s_axis and the
//! core's request port, field for field (tdata the key, tuser the op code, tid
//! the tag), its entries loaded with enables from registers only:
//! `s_axis_tready` and the core's req_valid are flip-flops, the core's key, op
//! and tag a 2:1 multiplexer of flip-flops, and the core's req_ready reaches
//! only the FIFO's few control flip-flops (a skid buffer's output stage would
//! need req_ready on the enable of every payload bit).
//!
//! A register clear (COMMAND.clear, `clear`) raises `clear_pending`; the clear
//! enters the FIFO ahead of s_axis (s_axis_tready is low from the write until
//! it is in), so it reaches the core in stream order, with its entry's `drop`
//! flag set: its response is taken from the core and dropped (`DropRing`).
//! `hold` (a bit access armed) closes s_axis the same way, without a beat.
//!
//! Latency: a beat taken on s_axis in cycle t is presented to the core from
//! cycle t+1; a clear written (`clear` high) in cycle t is offered from t+1.
//!
//! Memory: none (flip-flops).

use rust_hdl::prelude::*;

use super::interface::AxisRequest;
use super::pair_fifo::{PairControl, PairReg};
use crate::ports::RequestDriver;

#[derive(LogicBlock)]
pub struct RequestPath<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the FIFO, forgets a pending clear.
    pub reset: Signal<In, bool>,
    pub s_axis: AxisRequest<W>,
    /// To the core's request port.
    pub core: RequestDriver<W>,
    /// A register clear was written: offer one ahead of s_axis.
    pub clear: Signal<In, bool>,
    /// Keep s_axis closed in the next cycle (a bit access is armed).
    pub hold: Signal<In, bool>,
    /// s_axis hands over a request this cycle.
    pub take: Signal<Out, bool>,
    /// A register clear waits for the FIFO's input.
    pub pending_clear: Signal<Out, bool>,
    /// The beat presented to the core is a register clear.
    pub presented_clear: Signal<Out, bool>,
    /// The FIFO holds a beat and an entry is a register clear (STATUS.busy; an
    /// entry's flag may be left from an earlier beat).
    pub clear_queued: Signal<Out, bool>,
    req_ctl: PairControl,
    req_key: PairReg<Bits<W>>,
    req_op: PairReg<Bits<2>>,
    req_tag: PairReg<Bits<8>>,
    /// The beat is a clear from COMMAND (its response is dropped).
    req_drop: PairReg<bool>,
    clear_pending: DFF<bool>,
    clear_next: Signal<Local, bool>,
    in_op: Signal<Local, Bits<2>>,
    /// Entries read only through the one presented.
    unused_entries: Signal<Local, bool>,
    op_clear: Constant<Bits<2>>,
}

impl<const W: usize> Default for RequestPath<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_axis: Default::default(),
            core: Default::default(),
            clear: Default::default(),
            hold: Default::default(),
            take: Default::default(),
            pending_clear: Default::default(),
            presented_clear: Default::default(),
            clear_queued: Default::default(),
            req_ctl: Default::default(),
            req_key: Default::default(),
            req_op: Default::default(),
            req_tag: Default::default(),
            req_drop: Default::default(),
            clear_pending: Default::default(),
            clear_next: Default::default(),
            in_op: Default::default(),
            unused_entries: Default::default(),
            op_clear: Constant::new(2.into()),
        }
    }
}

impl<const W: usize> Logic for RequestPath<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, clear_pending);
        self.req_ctl.clock.next = self.clock.val();
        self.req_key.clock.next = self.clock.val();
        self.req_op.clock.next = self.clock.val();
        self.req_tag.clock.next = self.clock.val();
        self.req_drop.clock.next = self.clock.val();
        self.req_ctl.reset.next = self.reset.val();
        self.req_ctl.out_ready.next = self.core.ready.val();
        self.s_axis.tready.next = self.req_ctl.open.val();
        self.take.next = self.s_axis.tvalid.val() & self.req_ctl.open.val();
        // The input: s_axis, or a pending clear.
        self.req_ctl.in_valid.next = self.clear_pending.q.val() | self.take.val();
        self.in_op.next = self.s_axis.tuser.val();
        if self.clear_pending.q.val() {
            self.in_op.next = self.op_clear.val();
        }
        self.req_key.value_in.next = self.s_axis.tdata.val();
        self.req_op.value_in.next = self.in_op.val();
        self.req_tag.value_in.next = self.s_axis.tid.val();
        self.req_drop.value_in.next = self.clear_pending.q.val();
        self.req_key.write_0.next = self.req_ctl.write_0.val();
        self.req_key.write_1.next = self.req_ctl.write_1.val();
        self.req_key.read_1.next = self.req_ctl.read_1.val();
        self.req_op.write_0.next = self.req_ctl.write_0.val();
        self.req_op.write_1.next = self.req_ctl.write_1.val();
        self.req_op.read_1.next = self.req_ctl.read_1.val();
        self.req_tag.write_0.next = self.req_ctl.write_0.val();
        self.req_tag.write_1.next = self.req_ctl.write_1.val();
        self.req_tag.read_1.next = self.req_ctl.read_1.val();
        self.req_drop.write_0.next = self.req_ctl.write_0.val();
        self.req_drop.write_1.next = self.req_ctl.write_1.val();
        self.req_drop.read_1.next = self.req_ctl.read_1.val();
        // A clear waits for the FIFO's input (s_axis is closed meanwhile); an
        // armed bit access closes s_axis too, until it is issued.
        self.clear_next.next =
            (self.clear_pending.q.val() & !self.req_ctl.in_ready.val()) | self.clear.val();
        self.req_ctl.hold.next = self.clear_next.val() | self.hold.val();
        self.clear_pending.d.next = self.clear_next.val();

        // The core's inputs: registers of the FIFO only.
        self.core.valid.next = self.req_ctl.out_valid.val();
        self.core.key.next = self.req_key.value_out.val();
        self.core.op.next = self.req_op.value_out.val();
        self.core.tag.next = self.req_tag.value_out.val();
        self.pending_clear.next = self.clear_pending.q.val();
        self.presented_clear.next = self.req_drop.value_out.val();
        self.clear_queued.next = self.req_ctl.out_valid.val()
            & (self.req_drop.held_0.val() | self.req_drop.held_1.val());
        self.unused_entries.next = self.req_key.held_0.val().xor()
            ^ self.req_key.held_1.val().xor()
            ^ self.req_op.held_0.val().xor()
            ^ self.req_op.held_1.val().xor()
            ^ self.req_tag.held_0.val().xor()
            ^ self.req_tag.held_1.val().xor();
        if self.reset.val() {
            self.clear_pending.d.next = false;
        }
    }
}
