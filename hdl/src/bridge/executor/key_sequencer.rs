//! `KeySequencer`: loads a frame's keys (or a dump's or write's three argument
//! bytes) from the frame receiver's buffer, one byte every two cycles (LoadA
//! reads at `buf_raddr`, LoadB shifts the byte into `key_sr`), runs each key
//! on the core (Issue: the request, held until taken; WaitResp: the
//! response, whose hit is the key's bit of the answer bitmap), and keeps the
//! answer: the hit bitmap, or after a write the bank's fill count (`settled`).
//!
//! Keys are left-aligned to 128 bits in `key_sr` and right-aligned on the
//! core's req_key (req_key[W-1:0] is the key); the tag is the key's index.
//! Deletes are op 3 on the core, clears op 2, inserts op 1, queries op 0.
//!
//! Latency: per key 2*key_bytes + 2 + L cycles for a core of latency L. The
//! receive buffer is read only while the frame receiver holds `done`, so no
//! read meets a write to the same address. Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::{DispatchIn, FrameHeaderIn};
use super::state::{ExecState, NextState};
use crate::ports::{RequestDriver, ResponseDriver};

#[derive(LogicBlock)]
pub struct KeySequencer {
    pub clock: Signal<In, Clock>,
    pub state: Signal<In, ExecState>,
    /// The frame receiver holds a frame (Idle starts the pointers from 0).
    pub f_done: Signal<In, Bit>,
    /// The receive buffer: read address (registered) and the byte there.
    pub buf_raddr: Signal<Out, Bits<8>>,
    pub buf_rdata: Signal<In, Bits<8>>,
    pub header: FrameHeaderIn<0>,
    pub dispatch: DispatchIn<0>,
    /// The frame is a delete or delete batch.
    pub delete: Signal<In, Bit>,
    /// The core's request and response ports.
    pub req: RequestDriver<128>,
    pub resp: ResponseDriver<128>,
    /// A write's last bit has been counted: the answer is the bank's fill.
    pub settled: Signal<In, Bit>,
    pub fill_count: Signal<In, Bits<17>>,
    /// The three argument bytes of a dump or write: bank, address low, address high.
    pub args: Signal<Out, Bits<24>>,
    /// The answer, and the number of its bits.
    pub answer: Signal<Out, Bits<32>>,
    pub answer_bits: Signal<Out, Bits<8>>,
    pub step: NextState,
    key_sr: DFF<Bits<128>>,
    bptr: DFF<Bits<8>>,
    bcount: DFF<Bits<8>>,
    load_count: DFF<Bits<8>>,
    nkeys: DFF<Bits<8>>,
    /// nkeys - 1, set with nkeys, so the per-key loop compares without an adder.
    last_idx: DFF<Bits<8>>,
    idx: DFF<Bits<8>>,
    bitmap: DFF<Bits<32>>,
    key_bytes: Constant<Bits<8>>,
    key_bytes_log: Constant<Bits<8>>,
    key_align: Constant<Bits<8>>,
}

impl KeySequencer {
    pub fn new(key_bits: u32) -> Self {
        let key_bytes = key_bits / 8;
        Self {
            clock: Default::default(),
            state: Default::default(),
            f_done: Default::default(),
            buf_raddr: Default::default(),
            buf_rdata: Default::default(),
            header: Default::default(),
            dispatch: Default::default(),
            delete: Default::default(),
            req: Default::default(),
            resp: Default::default(),
            settled: Default::default(),
            fill_count: Default::default(),
            args: Default::default(),
            answer: Default::default(),
            answer_bits: Default::default(),
            step: Default::default(),
            key_sr: Default::default(),
            bptr: Default::default(),
            bcount: Default::default(),
            load_count: Default::default(),
            nkeys: Default::default(),
            last_idx: Default::default(),
            idx: Default::default(),
            bitmap: Default::default(),
            key_bytes: Constant::new((key_bytes as u64).into()),
            key_bytes_log: Constant::new((key_bytes.trailing_zeros() as u64).into()),
            key_align: Constant::new(((128 - key_bits) as u64).into()),
        }
    }
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for KeySequencer {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, key_sr, bptr, bcount, load_count, nkeys, last_idx, idx, bitmap);
        self.buf_raddr.next = self.bptr.q.val();
        self.args.next = self.key_sr.q.val().get_bits::<24>(104);
        self.answer.next = self.bitmap.q.val();
        self.answer_bits.next = self.nkeys.q.val();
        self.req.valid.next = false;
        self.req.op.next = 0.into();
        self.req.key.next = self.key_sr.q.val() >> self.key_align.val();
        self.req.tag.next = self.idx.q.val();
        self.resp.ready.next = false;
        self.step.claim.next = false;
        self.step.to.next = self.state.val();
        match self.state.val() {
            ExecState::Idle => {
                if self.f_done.val() {
                    self.bptr.d.next = 0.into();
                    self.bcount.d.next = 0.into();
                    self.idx.d.next = 0.into();
                    self.bitmap.d.next = 0.into();
                }
            }
            ExecState::Decode => {
                self.load_count.d.next = self.key_bytes.val();
                self.nkeys.d.next = 1.into();
                self.last_idx.d.next = 0.into();
                if self.dispatch.batch.val() {
                    self.nkeys.d.next = self.header.len.val() >> self.key_bytes_log.val();
                    self.last_idx.d.next = (self.header.len.val() >> self.key_bytes_log.val()) - 1;
                }
                if self.dispatch.dump.val() | self.dispatch.write.val() {
                    self.load_count.d.next = 3.into();
                }
            }
            ExecState::LoadA => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::LoadB;
            }
            ExecState::LoadB => {
                self.step.claim.next = true;
                self.key_sr.d.next =
                    (self.key_sr.q.val() >> 8) | (bit_cast::<128, 8>(self.buf_rdata.val()) << 120);
                self.bptr.d.next = self.bptr.q.val() + 1;
                self.bcount.d.next = self.bcount.q.val() + 1;
                if self.bcount.q.val() == (self.load_count.q.val() - 1) {
                    self.bcount.d.next = 0.into();
                    if (self.header.op.val() == 7) | (self.header.op.val() == 14) {
                        self.step.to.next = ExecState::DumpPrep;
                    } else if (self.header.op.val() == 9) | (self.header.op.val() == 15) {
                        self.step.to.next = ExecState::WritePrep;
                    } else {
                        self.step.to.next = ExecState::Issue;
                    }
                } else {
                    self.step.to.next = ExecState::LoadA;
                }
            }
            ExecState::Issue => {
                self.step.claim.next = true;
                self.req.valid.next = true;
                if self.header.op.val() == 5 {
                    self.req.op.next = 2.into();
                } else if self.delete.val() {
                    self.req.op.next = 3.into();
                } else if (self.header.op.val() == 2) | (self.header.op.val() == 4) {
                    self.req.op.next = 1.into();
                } else {
                    self.req.op.next = 0.into();
                }
                if self.req.ready.val() {
                    self.step.to.next = ExecState::WaitResp;
                }
            }
            ExecState::WaitResp => {
                self.step.claim.next = true;
                self.resp.ready.next = true;
                if self.resp.valid.val() {
                    self.bitmap.d.next = self
                        .bitmap
                        .q
                        .val()
                        .replace_bit(self.idx.q.val().index(), self.resp.hit.val());
                    self.idx.d.next = self.idx.q.val() + 1;
                    if self.idx.q.val() == self.last_idx.q.val() {
                        self.step.to.next = ExecState::Finish;
                    } else {
                        self.step.to.next = ExecState::LoadA;
                    }
                }
            }
            // The write engine reads the buffer through the same pointer.
            ExecState::CheckLoad => {
                self.bptr.d.next = self.bptr.q.val() + 1;
            }
            ExecState::CheckByte => {
                // Back to the first data byte for the writes.
                self.bptr.d.next = 3.into();
            }
            ExecState::WriteLoad => {
                self.bptr.d.next = self.bptr.q.val() + 1;
            }
            _ => {}
        }
        if self.settled.val() {
            self.bitmap.d.next = bit_cast::<32, 17>(self.fill_count.val());
            self.nkeys.d.next = 24.into();
        }
    }
}
