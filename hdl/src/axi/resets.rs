//! `ResetCopies`: `bloom_axis`'s reset, aresetn (active low) registered, in
//! flip-flops loaded alike, one per part of the wrapper: the AXI4-Lite side and
//! the bit access (`lite`), the core (`core`), the streams' FIFOs and the drop
//! ring (`streams`). One register driving every reset was the slowest path of
//! the wrapper on iCE40 (3 ns of route to the far side); the copies are kept
//! apart in synthesis (`wrapper::KEPT_MODULES`), or Yosys would merge them back
//! into one.
//!
//! `asserted` is the value they load (`!aresetn`, combinational), for the write
//! side's reset actions, which are loaded alongside: the counters' zero is one
//! of them (`LiteWrite`'s `act_zero`), so the fourth copy, `for_counters`, is
//! read by nothing (it is kept, as it was when the wrapper's figures were
//! measured).
//!
//! Latency: aresetn low in cycle t gives every copy high from cycle t+1.
//!
//! Memory: none (four flip-flops).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct ResetCopies {
    pub clock: Signal<In, Clock>,
    /// AMBA ARESETn: synchronous, active low.
    pub aresetn: Signal<In, bool>,
    /// `!aresetn`: what every copy holds from the next cycle.
    pub asserted: Signal<Out, bool>,
    /// The AXI4-Lite side's and the bit access's reset.
    pub lite: Signal<Out, bool>,
    /// The core's.
    pub core: Signal<Out, bool>,
    /// The stream FIFOs' and the drop ring's.
    pub streams: Signal<Out, bool>,
    for_lite: DFF<bool>,
    for_core: DFF<bool>,
    for_streams: DFF<bool>,
    for_counters: DFF<bool>,
}

impl Logic for ResetCopies {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, for_lite, for_core, for_streams, for_counters);
        self.asserted.next = !self.aresetn.val();
        self.for_lite.d.next = !self.aresetn.val();
        self.for_core.d.next = !self.aresetn.val();
        self.for_streams.d.next = !self.aresetn.val();
        self.for_counters.d.next = !self.aresetn.val();
        self.lite.next = self.for_lite.q.val();
        self.core.next = self.for_core.q.val();
        self.streams.next = self.for_streams.q.val();
    }
}
