//! `DumpEngine`: the dump and dump counters frames (docs/protocol.md §4): a
//! chunk of a bank read back through the core's bank access port, 8 bits a
//! byte (dump) or one counter a byte (dump counters), each byte handed over
//! while the next is read.
//!
//! DumpPrep and DumpPrep2 let the argument checks take the three argument
//! bytes; DumpCheck answers the frame (`accepted`: its chunk's length, `chunk`)
//! or rejects it (BAD_ARGUMENT); DumpStart starts the response; then per byte
//! DumpReq asks for a readback when the core is not busy, DumpWait takes its
//! result (the bank port assembles the byte), DumpEmit hands the byte over,
//! DumpNext counts it.
//!
//! Latency: 3 cycles plus 8 readbacks per byte (dump counters: one), overlapped
//! with the transmission of the previous byte. Memory: none (one register).

use rust_hdl::prelude::*;

use super::groups::{ArgumentChecksIn, DispatchIn, WalkIn};
use super::state::{ExecState, NextState};

#[derive(LogicBlock, Default)]
pub struct DumpEngine {
    pub clock: Signal<In, Clock>,
    pub state: Signal<In, ExecState>,
    pub dispatch: DispatchIn<0>,
    /// The frame is a dump counters (from the decode).
    pub op_cdump: Signal<In, Bit>,
    pub checks: ArgumentChecksIn<0>,
    pub r_idle: Signal<In, Bit>,
    pub busy: Signal<In, Bit>,
    /// The core's readback result is valid.
    pub rb_valid: Signal<In, Bit>,
    pub walk: WalkIn<0>,
    pub pl_take: Signal<In, Bit>,
    pub left: Signal<In, Bits<8>>,
    /// The frame being answered is a dump counters.
    pub counters: Signal<Out, Bit>,
    /// The arguments are good (in DumpCheck), and the chunk's length.
    pub accepted: Signal<Out, Bit>,
    pub chunk: Signal<Out, Bits<8>>,
    /// The byte is complete (in DumpWait).
    pub byte_done: Signal<Out, Bit>,
    pub step: NextState,
    /// Latched in Decode: the header decode follows the frame receiver, which
    /// moves on once the response starts.
    cdump: DFF<Bit>,
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for DumpEngine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cdump);
        self.counters.next = self.cdump.q.val();
        self.accepted.next = self.checks.dump_ok.val();
        self.chunk.next = self.checks.dump_len.val();
        if self.cdump.q.val() {
            self.accepted.next = self.checks.cdump_ok.val();
            self.chunk.next = self.checks.cdump_len.val();
        }
        self.byte_done.next =
            self.rb_valid.val() & (self.cdump.q.val() | (self.walk.bitcnt.val() == 7));
        self.step.claim.next = false;
        self.step.to.next = self.state.val();
        match self.state.val() {
            ExecState::Decode => {
                if self.dispatch.dump.val() {
                    self.cdump.d.next = self.op_cdump.val();
                }
            }
            ExecState::DumpPrep => {
                // key_sr is complete; the argument checks take it in this cycle.
                self.step.claim.next = true;
                self.step.to.next = ExecState::DumpPrep2;
            }
            ExecState::DumpPrep2 => {
                // The chunk's length takes the span in this cycle.
                self.step.claim.next = true;
                self.step.to.next = ExecState::DumpCheck;
            }
            ExecState::DumpCheck => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::Reject;
                if self.accepted.val() {
                    self.step.to.next = ExecState::DumpStart;
                }
            }
            ExecState::DumpStart => {
                self.step.claim.next = true;
                if self.r_idle.val() {
                    self.step.to.next = ExecState::DumpReq;
                }
            }
            ExecState::DumpReq => {
                self.step.claim.next = true;
                if !self.busy.val() {
                    self.step.to.next = ExecState::DumpWait;
                }
            }
            ExecState::DumpWait => {
                self.step.claim.next = true;
                if self.byte_done.val() {
                    self.step.to.next = ExecState::DumpEmit;
                } else if self.rb_valid.val() {
                    self.step.to.next = ExecState::DumpReq;
                }
            }
            ExecState::DumpEmit => {
                self.step.claim.next = true;
                if self.pl_take.val() {
                    self.step.to.next = ExecState::DumpNext;
                }
            }
            ExecState::DumpNext => {
                self.step.claim.next = true;
                if self.left.val() == 1 {
                    self.step.to.next = ExecState::Idle;
                } else {
                    self.step.to.next = ExecState::DumpReq;
                }
            }
            _ => {}
        }
    }
}
