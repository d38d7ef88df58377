//! `WriteEngine`: the write bits and write counters frames (docs/protocol.md
//! §4): a frame's data bytes written into a bank through the core's bank
//! access port, one bit per write (write bits, bit 0 of each byte first) or one
//! counter per byte (write counters, every value checked against 2^c - 1 before
//! any is written: CheckFetch, CheckLoad, CheckByte). The answer is the bank's
//! fill count once the last write is counted (WriteSettle, `settled`).
//!
//! WritePrep and WritePrep2 let the argument checks take the three argument
//! bytes; WriteCheck rejects a write that does not fit the bank (BAD_ARGUMENT);
//! WriteIdle waits until the core is not busy (bit writes are dropped while a
//! clear sweeps; nothing else can start one now); then per byte WriteFetch
//! reads the buffer, WriteLoad takes the byte, WriteBit writes.
//!
//! Latency: write bits 10 cycles per data byte plus 19; write counters 2
//! cycles per byte for the check, then 3 per byte, plus 19. Memory: none
//! (registers).

use rust_hdl::prelude::*;

use super::groups::{ArgumentChecksIn, DispatchIn, FrameHeaderIn, WalkIn};
use super::state::{ExecState, NextState};

#[derive(LogicBlock)]
pub struct WriteEngine {
    pub clock: Signal<In, Clock>,
    pub state: Signal<In, ExecState>,
    pub header: FrameHeaderIn<0>,
    pub dispatch: DispatchIn<0>,
    /// The frame is a write counters (from the decode).
    pub op_cwrite: Signal<In, Bit>,
    pub checks: ArgumentChecksIn<0>,
    /// The receive buffer's byte (a value to check).
    pub buf_rdata: Signal<In, Bits<8>>,
    pub busy: Signal<In, Bit>,
    pub walk: WalkIn<0>,
    /// The frame being executed is a write counters.
    pub counters: Signal<Out, Bit>,
    /// The last write has been counted (in WriteSettle): the answer is the fill.
    pub settled: Signal<Out, Bit>,
    pub step: NextState,
    /// Data bytes of the frame still to check or write.
    write_left: DFF<Bits<8>>,
    /// Latched in Decode.
    cwrite: DFF<Bit>,
    /// Write counters: a data byte above 2^c - 1 was found by the check pass.
    value_bad: DFF<Bit>,
    /// 2^c - 1, the largest counter value (1 on a plain board).
    counter_max: Constant<Bits<8>>,
    /// Cycles WriteSettle waits after the last write (see `write_settle_cycles`).
    write_settle: Constant<Bits<5>>,
}

impl WriteEngine {
    /// `settle`: [`super::write_settle_cycles`] of the core.
    pub fn new(core: &crate::CoreParams, settle: u32) -> Self {
        Self {
            clock: Default::default(),
            state: Default::default(),
            header: Default::default(),
            dispatch: Default::default(),
            op_cwrite: Default::default(),
            checks: Default::default(),
            buf_rdata: Default::default(),
            busy: Default::default(),
            walk: Default::default(),
            counters: Default::default(),
            settled: Default::default(),
            step: Default::default(),
            write_left: Default::default(),
            cwrite: Default::default(),
            value_bad: Default::default(),
            counter_max: Constant::new(((1u64 << core.counter_bits) - 1).into()),
            write_settle: Constant::new((settle as u64).into()),
        }
    }
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for WriteEngine {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, write_left, cwrite, value_bad);
        self.counters.next = self.cwrite.q.val();
        self.settled.next = false;
        self.step.claim.next = false;
        self.step.to.next = self.state.val();
        match self.state.val() {
            ExecState::Decode => {
                if self.dispatch.write.val() {
                    self.cwrite.d.next = self.op_cwrite.val();
                    self.value_bad.d.next = false;
                }
            }
            ExecState::WritePrep => {
                // key_sr is complete; the argument checks take it in this cycle.
                self.step.claim.next = true;
                self.step.to.next = ExecState::WritePrep2;
            }
            ExecState::WritePrep2 => {
                // write_fits takes the span in this cycle.
                self.step.claim.next = true;
                self.step.to.next = ExecState::WriteCheck;
            }
            ExecState::WriteCheck => {
                self.step.claim.next = true;
                self.write_left.d.next = self.header.len.val() - 3;
                self.step.to.next = ExecState::Reject;
                if self.cwrite.q.val() {
                    // Every value is checked before any is written.
                    if self.checks.cdump_ok.val() & self.checks.cwrite_fits.val() {
                        self.step.to.next = ExecState::CheckFetch;
                    }
                } else if self.checks.dump_ok.val() & self.checks.write_fits.val() {
                    self.step.to.next = ExecState::WriteIdle;
                }
            }
            ExecState::CheckFetch => {
                // buf_raddr = bptr now; the byte is there next cycle.
                self.step.claim.next = true;
                self.step.to.next = ExecState::CheckLoad;
            }
            ExecState::CheckLoad => {
                self.step.claim.next = true;
                if self.buf_rdata.val() > self.counter_max.val() {
                    self.value_bad.d.next = true;
                }
                self.write_left.d.next = self.write_left.q.val() - 1;
                if self.write_left.q.val() == 1 {
                    self.step.to.next = ExecState::CheckByte;
                } else {
                    self.step.to.next = ExecState::CheckFetch;
                }
            }
            ExecState::CheckByte => {
                self.step.claim.next = true;
                self.write_left.d.next = self.header.len.val() - 3;
                if self.value_bad.q.val() {
                    self.step.to.next = ExecState::Reject;
                } else {
                    self.step.to.next = ExecState::WriteIdle;
                }
            }
            ExecState::WriteIdle => {
                self.step.claim.next = true;
                if !self.busy.val() {
                    self.step.to.next = ExecState::WriteFetch;
                }
            }
            ExecState::WriteFetch => {
                // buf_raddr = bptr now; the byte is there next cycle.
                self.step.claim.next = true;
                self.step.to.next = ExecState::WriteLoad;
            }
            ExecState::WriteLoad => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::WriteBit;
            }
            ExecState::WriteBit => {
                // One counter a byte, or a byte's eighth bit: the byte is written.
                self.step.claim.next = true;
                if self.cwrite.q.val() | (self.walk.bitcnt.val() == 7) {
                    self.write_left.d.next = self.write_left.q.val() - 1;
                    if self.write_left.q.val() == 1 {
                        self.step.to.next = ExecState::WriteSettle;
                    } else {
                        self.step.to.next = ExecState::WriteFetch;
                    }
                }
            }
            ExecState::WriteSettle => {
                // The last write reached the core in the first cycle of this state; its
                // bank's fill counter has counted it within write_settle cycles.
                self.step.claim.next = true;
                if self.walk.wait.val() == self.write_settle.val() {
                    self.settled.next = true;
                    self.step.to.next = ExecState::Finish;
                }
            }
            _ => {}
        }
    }
}
