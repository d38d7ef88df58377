//! `ResponsePath`: responses out of the core. A two-entry FIFO
//! (`pair_fifo::PairControl` and a `PairReg` per field) between the core's
//! response port and m_axis (tdata bit 0 the hit, tid the tag, tlast 1), its
//! entries written straight from the core's response port: the core's
//! resp_ready and `m_axis_tvalid` are flip-flops. A response the `DropRing`
//! marks `drop` (a register clear's) is taken from the core and never written
//! into the FIFO; each entry carries `query` along, for the HITS counter.
//!
//! Latency: a response taken from the core in cycle t is presented on m_axis
//! from cycle t+1. Memory: none (flip-flops).

use rust_hdl::prelude::*;

use super::interface::AxisResponse;
use super::pair_fifo::{PairControl, PairReg};
use crate::ports::ResponseDriver;

#[derive(LogicBlock)]
pub struct ResponsePath<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous: empties the FIFO.
    pub reset: Signal<In, bool>,
    /// From the core's response port.
    pub core: ResponseDriver<W>,
    pub m_axis: AxisResponse<W>,
    /// The response the core presents is dropped (`DropRing::drop`).
    pub drop: Signal<In, bool>,
    /// It answers a query (`DropRing::query`).
    pub query: Signal<In, bool>,
    /// The core's response is taken this cycle (sent or dropped).
    pub pop: Signal<Out, bool>,
    /// m_axis hands over a query's response that is a hit.
    pub query_hit_sent: Signal<Out, bool>,
    resp_ctl: PairControl,
    resp_hit: PairReg<bool>,
    resp_tag: PairReg<Bits<8>>,
    /// The response answers a query (op 0): for the HITS counter.
    resp_query: PairReg<bool>,
    send: Signal<Local, bool>,
    /// Entries read only through the one presented, and the FIFO's `open`.
    unused_entries: Signal<Local, bool>,
    zero_8: Constant<Bits<8>>,
    one_8: Constant<Bits<8>>,
}

impl<const W: usize> Default for ResponsePath<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            core: Default::default(),
            m_axis: Default::default(),
            drop: Default::default(),
            query: Default::default(),
            pop: Default::default(),
            query_hit_sent: Default::default(),
            resp_ctl: Default::default(),
            resp_hit: Default::default(),
            resp_tag: Default::default(),
            resp_query: Default::default(),
            send: Default::default(),
            unused_entries: Default::default(),
            zero_8: Constant::new(0.into()),
            one_8: Constant::new(1.into()),
        }
    }
}

impl<const W: usize> Logic for ResponsePath<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.resp_ctl.clock.next = self.clock.val();
        self.resp_hit.clock.next = self.clock.val();
        self.resp_tag.clock.next = self.clock.val();
        self.resp_query.clock.next = self.clock.val();
        self.resp_ctl.reset.next = self.reset.val();
        self.resp_ctl.out_ready.next = self.m_axis.tready.val();
        self.resp_ctl.hold.next = false;
        self.resp_ctl.in_valid.next = self.core.valid.val() & !self.drop.val();
        self.core.ready.next = self.resp_ctl.in_ready.val();
        self.resp_hit.value_in.next = self.core.hit.val();
        self.resp_tag.value_in.next = self.core.tag.val();
        self.resp_query.value_in.next = self.query.val();
        self.resp_hit.write_0.next = self.resp_ctl.write_0.val();
        self.resp_tag.write_0.next = self.resp_ctl.write_0.val();
        self.resp_query.write_0.next = self.resp_ctl.write_0.val();
        self.resp_hit.write_1.next = self.resp_ctl.write_1.val();
        self.resp_tag.write_1.next = self.resp_ctl.write_1.val();
        self.resp_query.write_1.next = self.resp_ctl.write_1.val();
        self.resp_hit.read_1.next = self.resp_ctl.read_1.val();
        self.resp_tag.read_1.next = self.resp_ctl.read_1.val();
        self.resp_query.read_1.next = self.resp_ctl.read_1.val();
        self.m_axis.tvalid.next = self.resp_ctl.out_valid.val();
        self.m_axis.tdata.next = self.zero_8.val();
        if self.resp_hit.value_out.val() {
            self.m_axis.tdata.next = self.one_8.val();
        }
        self.m_axis.tid.next = self.resp_tag.value_out.val();
        self.m_axis.tlast.next = true;
        self.pop.next = self.core.valid.val() & self.resp_ctl.in_ready.val();
        self.send.next = self.resp_ctl.out_valid.val() & self.m_axis.tready.val();
        self.query_hit_sent.next =
            self.send.val() & self.resp_hit.value_out.val() & self.resp_query.value_out.val();
        self.unused_entries.next = self.resp_ctl.open.val()
            ^ self.resp_hit.held_0.val()
            ^ self.resp_hit.held_1.val()
            ^ self.resp_tag.held_0.val().xor()
            ^ self.resp_tag.held_1.val().xor()
            ^ self.resp_query.held_0.val()
            ^ self.resp_query.held_1.val();
    }
}
