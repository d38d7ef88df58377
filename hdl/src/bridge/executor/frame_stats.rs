//! `FrameStats`: the counters of the stats payload (docs/protocol.md §5): keys
//! served by the core, frames answered, rejected and replayed, and two flags:
//! the last frame was rejected (an LED), and "image load incomplete" (a write
//! bits frame ran since the last image complete or clear).
//!
//! The counters are zeroed by reset and by the zero-counters frame (in Finish);
//! the image flag is not reset: it describes the banks, which a reset keeps.
//! `payload` is the counters and the image flag at their places in the stats
//! payload (bytes 15 to 31, after the configuration block).
//!
//! Latency: a count is in the payload the cycle after its state. Memory: none
//! (registers).

use rust_hdl::prelude::*;

use super::groups::{DispatchIn, FrameHeaderIn};
use super::state::ExecState;

#[derive(LogicBlock, Default)]
pub struct FrameStats {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub state: Signal<In, ExecState>,
    pub header: FrameHeaderIn<0>,
    pub dispatch: DispatchIn<0>,
    /// The core gives a response (counted in WaitResp).
    pub resp_valid: Signal<In, Bit>,
    /// The dump's arguments are good (counted in DumpCheck).
    pub dump_accepted: Signal<In, Bit>,
    pub busy: Signal<In, Bit>,
    /// Bytes 15..32 of the stats payload, in place (the configuration block is 0 here).
    pub payload: Signal<Out, Bits<256>>,
    /// High from a rejected frame until the next good one.
    pub last_rejected: Signal<Out, Bit>,
    ops_served: DFF<Bits<32>>,
    frames_ok: DFF<Bits<32>>,
    frames_rejected: DFF<Bits<32>>,
    frames_replayed: DFF<Bits<32>>,
    rejected_flag: DFF<Bit>,
    /// A write bits frame ran since the last image complete or clear.
    image_incomplete: DFF<Bit>,
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for FrameStats {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ops_served,
            frames_ok,
            frames_rejected,
            frames_replayed,
            rejected_flag,
            image_incomplete
        );
        self.last_rejected.next = self.rejected_flag.q.val();
        self.payload.next = (bit_cast::<256, 32>(self.ops_served.q.val()) << 120)
            | (bit_cast::<256, 32>(self.frames_ok.q.val()) << 152)
            | (bit_cast::<256, 32>(self.frames_rejected.q.val()) << 184)
            | (bit_cast::<256, 32>(self.frames_replayed.q.val()) << 216)
            | (bit_cast::<256, 1>(self.image_incomplete.q.val().into()) << 248);
        match self.state.val() {
            ExecState::Decode => {
                if self.dispatch.stats.val() | self.dispatch.config_block.val() {
                    self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                }
            }
            ExecState::WaitResp => {
                if self.resp_valid.val() {
                    self.ops_served.d.next = self.ops_served.q.val() + 1;
                }
            }
            ExecState::Finish => {
                self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                self.rejected_flag.d.next = false;
                if (self.header.op.val() == 5) | (self.header.op.val() == 10) {
                    self.image_incomplete.d.next = false;
                }
                if self.header.op.val() == 11 {
                    self.ops_served.d.next = 0.into();
                    self.frames_ok.d.next = 0.into();
                    self.frames_rejected.d.next = 0.into();
                    self.frames_replayed.d.next = 0.into();
                }
            }
            ExecState::Replay => {
                self.frames_replayed.d.next = self.frames_replayed.q.val() + 1;
            }
            ExecState::Reject => {
                self.frames_rejected.d.next = self.frames_rejected.q.val() + 1;
                self.rejected_flag.d.next = true;
            }
            ExecState::DumpCheck => {
                if self.dump_accepted.val() {
                    self.frames_ok.d.next = self.frames_ok.q.val() + 1;
                    self.rejected_flag.d.next = false;
                }
            }
            ExecState::WriteIdle => {
                // Bit writes are dropped while a clear sweeps: the image changes from here.
                if !self.busy.val() {
                    self.image_incomplete.d.next = true;
                }
            }
            _ => {}
        }
        if self.reset.val() {
            self.ops_served.d.next = 0.into();
            self.frames_ok.d.next = 0.into();
            self.frames_rejected.d.next = 0.into();
            self.frames_replayed.d.next = 0.into();
        }
    }
}
