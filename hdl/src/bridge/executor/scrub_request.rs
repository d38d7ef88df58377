//! `ScrubRequest`: the scrub frame (docs/protocol.md §3): in Finish of a scrub
//! frame it raises the core's `scrub_req` for that one cycle if no scrub is
//! running (`scrub_busy` low), and says whether it did (`started`, the first
//! byte of the frame's answer; the second is the scrubs ended so far, from
//! `FrameStats`). The core starts a scrub in a cycle `scrub_req` is high and
//! `scrub_busy` and `reset` low (docs/contract.md §5.2), so an answer of 1 means a
//! scrub started in that cycle and `scrub_busy` is high from the next until it ends.
//! Only a board built with the scrub gets here (the others refuse the frame,
//! NO_SCRUB).
//!
//! Latency: none (combinational from the state, the OP and `scrub_busy`).
//! Memory: none.

use rust_hdl::prelude::*;

use super::groups::FrameHeaderIn;
use super::state::ExecState;

#[derive(LogicBlock, Default)]
pub struct ScrubRequest {
    pub state: Signal<In, ExecState>,
    pub header: FrameHeaderIn<0>,
    /// The core's scrub_busy.
    pub busy: Signal<In, Bit>,
    /// The core's scrub_req.
    pub req: Signal<Out, Bit>,
    /// The scrub frame's answer: a scrub starts in this cycle.
    pub started: Signal<Out, Bit>,
}

impl Logic for ScrubRequest {
    #[hdl_gen]
    fn update(&mut self) {
        self.req.next = false;
        self.started.next = false;
        if (self.state.val() == ExecState::Finish) & (self.header.op.val() == 16) {
            self.req.next = !self.busy.val();
            self.started.next = !self.busy.val();
        }
    }
}
