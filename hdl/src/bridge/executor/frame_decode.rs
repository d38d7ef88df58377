//! `FrameDecode`: takes a frame from the frame receiver (Idle) and validates it
//! against its operation (Decode), docs/protocol.md §3-§4.
//!
//! The header's decode (`OpDecode`: what the operation is, whether its length
//! fits it) is registered every cycle from the frame receiver's outputs, which
//! are stable while it holds `done`, so Decode works from flip-flops only. Decode takes
//! the branch of the first operation flag that holds ([`Dispatch`] tells the
//! other blocks which) and goes where the length allows, else to Reject with
//! BAD_LENGTH (UNKNOWN_OP for no branch, WRONG_KIND for an operation the
//! board's kind of filter does not have, NO_SCRUB for a scrub request to a board
//! built without the scrub, whatever its length); a retry of the
//! last executed frame (`is_retry`, the `ReplayCache`'s) goes to Replay.
//!
//! Latency: Idle to Decode (or Reject, for a frame the receiver refused) in the
//! cycle after `f_done`; Decode leaves in one cycle. Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::{Dispatch, FrameHeader};
use super::op_decode::OpDecode;
use super::state::{ExecState, NextState};

#[derive(LogicBlock)]
pub struct FrameDecode {
    pub clock: Signal<In, Clock>,
    pub state: Signal<In, ExecState>,
    /// The frame receiver's frame: done, its status (0 good, else the error
    /// reason), SEQ, OP and LEN.
    pub f_done: Signal<In, Bit>,
    pub f_status: Signal<In, Bits<8>>,
    pub f_seq: Signal<In, Bits<8>>,
    pub f_op: Signal<In, Bits<8>>,
    pub f_len: Signal<In, Bits<8>>,
    /// The frame is a retry of the last one executed.
    pub is_retry: Signal<In, Bit>,
    pub header: FrameHeader<0>,
    /// The error reason of a rejected frame.
    pub reason: Signal<Out, Bits<8>>,
    pub dispatch: Dispatch<0>,
    /// Delete or delete batch (op 3 on the core); info (stats, dump, config:
    /// always executed); silent (no payload: clear, image complete, zero
    /// counters); dump counters; write counters.
    pub delete: Signal<Out, Bit>,
    pub info: Signal<Out, Bit>,
    pub silent: Signal<Out, Bit>,
    pub cdump: Signal<Out, Bit>,
    pub cwrite: Signal<Out, Bit>,
    pub step: NextState,
    seq_r: DFF<Bits<8>>,
    op_r: DFF<Bits<8>>,
    len_r: DFF<Bits<8>>,
    reason_r: DFF<Bits<8>>,
    ops: OpDecode,
    /// Decode's branch: the first operation flag that holds.
    go_single: Signal<Local, Bit>,
    go_clear: Signal<Local, Bit>,
    go_stats: Signal<Local, Bit>,
    go_local: Signal<Local, Bit>,
    go_config: Signal<Local, Bit>,
    go_unknown: Signal<Local, Bit>,
}

impl FrameDecode {
    pub fn new(core: &crate::CoreParams, max_batch: u32, scrub: bool) -> Self {
        Self {
            clock: Default::default(),
            state: Default::default(),
            f_done: Default::default(),
            f_status: Default::default(),
            f_seq: Default::default(),
            f_op: Default::default(),
            f_len: Default::default(),
            is_retry: Default::default(),
            header: Default::default(),
            reason: Default::default(),
            dispatch: Default::default(),
            delete: Default::default(),
            info: Default::default(),
            silent: Default::default(),
            cdump: Default::default(),
            cwrite: Default::default(),
            step: Default::default(),
            seq_r: Default::default(),
            op_r: Default::default(),
            len_r: Default::default(),
            reason_r: Default::default(),
            ops: OpDecode::new(core, max_batch, scrub),
            go_single: Default::default(),
            go_clear: Default::default(),
            go_stats: Default::default(),
            go_local: Default::default(),
            go_config: Default::default(),
            go_unknown: Default::default(),
        }
    }
}

impl Logic for FrameDecode {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, seq_r, op_r, len_r, reason_r);
        self.ops.clock.next = self.clock.val();
        self.ops.f_op.next = self.f_op.val();
        self.ops.f_len.next = self.f_len.val();
        self.header.seq.next = self.seq_r.q.val();
        self.header.op.next = self.op_r.q.val();
        self.header.len.next = self.len_r.q.val();
        self.reason.next = self.reason_r.q.val();
        self.delete.next = self.ops.flags.delete.val();
        self.info.next = self.ops.flags.info.val();
        self.silent.next = self.ops.flags.silent.val();
        self.cdump.next = self.ops.flags.cdump.val();
        self.cwrite.next = self.ops.flags.cwrite.val();

        // Decode's branch.
        self.go_single.next = false;
        self.dispatch.batch.next = false;
        self.go_clear.next = false;
        self.go_stats.next = false;
        self.dispatch.dump.next = false;
        self.dispatch.write.next = false;
        self.go_local.next = false;
        self.go_config.next = false;
        self.go_unknown.next = false;
        if self.ops.flags.single.val() {
            self.go_single.next = true;
        } else if self.ops.flags.batch.val() {
            self.dispatch.batch.next = true;
        } else if self.ops.flags.clear.val() {
            self.go_clear.next = true;
        } else if self.ops.flags.stats.val() {
            self.go_stats.next = true;
        } else if self.ops.flags.dump.val() {
            self.dispatch.dump.next = true;
        } else if self.ops.flags.write.val() {
            self.dispatch.write.next = true;
        } else if self.ops.flags.local.val() {
            self.go_local.next = true;
        } else if self.ops.flags.config_frame.val() {
            self.go_config.next = true;
        } else {
            self.go_unknown.next = true;
        }
        self.dispatch.stats.next = self.go_stats.val() & self.ops.flags.len_zero.val();
        self.dispatch.config_block.next = self.go_config.val() & self.ops.flags.len_zero.val();

        self.step.claim.next = false;
        self.step.to.next = self.state.val();
        match self.state.val() {
            ExecState::Idle => {
                self.step.claim.next = true;
                if self.f_done.val() {
                    self.seq_r.d.next = self.f_seq.val();
                    self.op_r.d.next = self.f_op.val();
                    self.len_r.d.next = self.f_len.val();
                    self.reason_r.d.next = self.f_status.val();
                    if self.f_status.val() != 0 {
                        self.step.to.next = ExecState::Reject;
                    } else {
                        self.step.to.next = ExecState::Decode;
                    }
                }
            }
            ExecState::Decode => {
                self.step.claim.next = true;
                self.reason_r.d.next = 2.into();
                self.step.to.next = ExecState::Reject;
                if self.go_single.val() & self.ops.flags.len_is_key.val() {
                    self.step.to.next = ExecState::LoadA;
                }
                if self.dispatch.batch.val() & self.ops.flags.len_batch_ok.val() {
                    self.step.to.next = ExecState::LoadA;
                }
                if self.go_clear.val() & self.ops.flags.len_zero.val() {
                    self.step.to.next = ExecState::Issue;
                }
                if self.dispatch.stats.val() | self.dispatch.config_block.val() {
                    self.step.to.next = ExecState::RespondSr;
                }
                if self.dispatch.dump.val() & self.ops.flags.len_dump_ok.val() {
                    self.step.to.next = ExecState::LoadA;
                }
                if self.dispatch.write.val() & self.ops.flags.len_write_ok.val() {
                    self.step.to.next = ExecState::LoadA;
                }
                if self.go_local.val() & self.ops.flags.len_zero.val() {
                    self.step.to.next = ExecState::Finish;
                }
                if self.go_unknown.val() {
                    self.reason_r.d.next = 3.into();
                }
                // Deletes on a plain board, write bits on a counting one: whatever the payload.
                if self.ops.flags.wrong_kind.val() {
                    self.reason_r.d.next = 6.into();
                    self.step.to.next = ExecState::Reject;
                }
                if self.ops.flags.no_scrub.val() {
                    self.reason_r.d.next = 7.into();
                    self.step.to.next = ExecState::Reject;
                }
                // A retry of the last executed frame: answer it again, do not re-run it.
                if self.is_retry.val() {
                    self.step.to.next = ExecState::Replay;
                }
            }
            ExecState::DumpCheck => {
                self.reason_r.d.next = 5.into();
            }
            ExecState::WriteCheck => {
                self.reason_r.d.next = 5.into();
            }
            _ => {}
        }
    }
}
