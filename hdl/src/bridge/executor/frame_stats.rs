//! `FrameStats`: the counters of the stats payload (docs/protocol.md §5): keys
//! served by the core, frames answered, rejected and replayed, two flags:
//! the last frame was rejected (an LED), and "image load incomplete" (a write
//! bits frame ran since the last image complete or clear), and the scrub's
//! state: `scrub_busy`, "scrub result" (a scrub ended since the last reset:
//! `scrub_busy` fell), `scrub_mismatch` and the scrubs ended since the last
//! reset (mod 256).
//!
//! The counters are zeroed by reset and by the zero-counters frame (in Finish);
//! the image flag is not reset: it describes the banks, which a reset keeps.
//! `payload` is the counters, the status byte and the mismatch bits at their
//! places in the stats payload (bytes 20 to 39, after the configuration block).
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
    /// The core's scrub_busy and scrub_mismatch (0 in a core without the scrub).
    pub scrub_busy: Signal<In, Bit>,
    pub scrub_mismatch: Signal<In, Bits<16>>,
    /// Bytes 20..40 of the stats payload, in place (the configuration block is 0 here).
    pub payload: Signal<Out, Bits<320>>,
    /// Scrubs ended since the last reset, mod 256 (the scrub frame's answer).
    pub scrubs_ended: Signal<Out, Bits<8>>,
    /// High from a rejected frame until the next good one.
    pub last_rejected: Signal<Out, Bit>,
    ops_served: DFF<Bits<32>>,
    frames_ok: DFF<Bits<32>>,
    frames_rejected: DFF<Bits<32>>,
    frames_replayed: DFF<Bits<32>>,
    rejected_flag: DFF<Bit>,
    /// A write bits frame ran since the last image complete or clear.
    image_incomplete: DFF<Bit>,
    /// scrub_busy a cycle ago, and: it has fallen since the last reset (a scrub ended,
    /// scrub_mismatch is its result; a reset ends a scrub without one).
    scrub_busy_was: DFF<Bit>,
    scrub_result: DFF<Bit>,
    scrubs_ended_r: DFF<Bits<8>>,
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
            image_incomplete,
            scrub_busy_was,
            scrub_result,
            scrubs_ended_r
        );
        self.last_rejected.next = self.rejected_flag.q.val();
        self.payload.next = (bit_cast::<320, 32>(self.ops_served.q.val()) << 160)
            | (bit_cast::<320, 32>(self.frames_ok.q.val()) << 192)
            | (bit_cast::<320, 32>(self.frames_rejected.q.val()) << 224)
            | (bit_cast::<320, 32>(self.frames_replayed.q.val()) << 256)
            | (bit_cast::<320, 1>(self.image_incomplete.q.val().into()) << 288)
            | (bit_cast::<320, 1>(self.scrub_busy.val().into()) << 289)
            | (bit_cast::<320, 1>(self.scrub_result.q.val().into()) << 290)
            | (bit_cast::<320, 16>(self.scrub_mismatch.val()) << 296)
            | (bit_cast::<320, 8>(self.scrubs_ended_r.q.val()) << 312);
        self.scrubs_ended.next = self.scrubs_ended_r.q.val();
        self.scrub_busy_was.d.next = self.scrub_busy.val();
        if self.scrub_busy_was.q.val() & !self.scrub_busy.val() {
            self.scrub_result.d.next = true;
            self.scrubs_ended_r.d.next = self.scrubs_ended_r.q.val() + 1;
        }
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
            self.scrub_result.d.next = false;
            self.scrubs_ended_r.d.next = 0.into();
        }
    }
}
