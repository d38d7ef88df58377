//! `Responder`: the response, header and payload, handed to the response
//! framer (docs/protocol.md §3-§5). Finish, Replay and Reject load the answer
//! into `out_sr` (the payload, byte 0 in the low bits: a hit bitmap, the last
//! answer again, or the error reason and OP), Decode the stats or the
//! configuration block; RespondSr starts the framer (and acks the frame
//! receiver) and EmitSr/ShiftSr hand the bytes over. The stats' fills, a dump's
//! bytes and their counts go through the same `pl_valid`/`out_left`, from the
//! fill reader's and the bank port's registers.
//!
//! Payload hand-off: `pl_take` (a long combinational path through the framer
//! and its CRC unit) only moves the sequence to a Shift/Next state; the wide
//! shift registers and counters advance there, one cycle later, from a
//! registered state decode. pl_valid is a flip-flop, low in that cycle, so no
//! byte is taken twice; the cycle is hidden under the byte's transmission time.
//!
//! Latency: Finish, Replay or Reject to the framer's start 2 cycles (with the
//! framer idle); a payload byte every transmission. Memory: none (registers).

use rust_hdl::prelude::*;

use super::groups::{DispatchIn, FrameHeaderIn, WalkIn};
use super::state::{ExecState, NextState};

#[derive(LogicBlock)]
pub struct Responder {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub state: Signal<In, ExecState>,
    /// The frame receiver holds a frame: a new response, no fills yet.
    pub f_done: Signal<In, Bit>,
    /// Release the frame receiver (the response starts).
    pub f_ack: Signal<Out, Bit>,
    pub header: FrameHeaderIn<0>,
    pub dispatch: DispatchIn<0>,
    /// The rejected frame's reason; the frame has no payload (silent).
    pub reason: Signal<In, Bits<8>>,
    pub silent: Signal<In, Bit>,
    /// The answers: this frame's (and its bits), the last one's, the stats counters.
    pub answer: Signal<In, Bits<32>>,
    pub answer_bits: Signal<In, Bits<8>>,
    pub last_answer: Signal<In, Bits<32>>,
    pub last_keys: Signal<In, Bits<8>>,
    pub stats_payload: Signal<In, Bits<320>>,
    /// A scrub frame's answer (in Finish): a scrub started, and the scrubs ended before it.
    pub scrub_started: Signal<In, Bit>,
    pub scrubs_ended: Signal<In, Bits<8>>,
    /// The fill reader's byte, and the bank walk (the dump's byte, the wait).
    pub fill_byte: Signal<In, Bits<8>>,
    pub walk: WalkIn<0>,
    /// A dump's arguments are good, its length; a dump byte is complete.
    pub dump_accepted: Signal<In, Bit>,
    pub dump_chunk: Signal<In, Bits<8>>,
    pub dump_byte_done: Signal<In, Bit>,
    /// To the response framer: start a response with this SEQ, code and length;
    /// a payload byte; and from it: idle, the byte is taken.
    pub r_start: Signal<Out, Bit>,
    pub r_seq: Signal<Out, Bits<8>>,
    pub r_code: Signal<Out, Bits<8>>,
    pub r_len: Signal<Out, Bits<8>>,
    pub pl_data: Signal<Out, Bits<8>>,
    pub pl_valid: Signal<Out, Bit>,
    pub pl_take: Signal<In, Bit>,
    pub r_idle: Signal<In, Bit>,
    /// Payload bytes still to send (of the current fill's three).
    pub left: Signal<Out, Bits<8>>,
    pub step: NextState,
    /// The response payload to send, byte 0 in the low bits (the stats' fixed part is 40 bytes).
    out_sr: DFF<Bits<320>>,
    out_left: DFF<Bits<8>>,
    resp_code: DFF<Bits<8>>,
    resp_len: DFF<Bits<8>>,
    /// The stats: the fills follow the fixed part.
    then_fill: DFF<Bit>,
    /// pl_valid from a flip-flop: high exactly while in EmitSr/EmitFill/DumpEmit.
    pl_valid_r: DFF<Bit>,
    stats_len: Constant<Bits<8>>,
    /// Bytes of the stats before the fills, and of the configuration block.
    stats_fixed: Constant<Bits<8>>,
    config_len: Constant<Bits<8>>,
    config_word: Constant<Bits<320>>,
}

impl Responder {
    /// `config_block`: the configuration block (docs/protocol.md §5); `stats_bytes`:
    /// the stats payload's length.
    pub fn new(config_block: &[u8], stats_bytes: u32) -> Self {
        let mut config_word: Bits<320> = 0.into();
        for (i, b) in config_block.iter().enumerate() {
            config_word = config_word | (bit_cast::<320, 8>((*b as u64).into()) << (8 * i as u64));
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            state: Default::default(),
            f_done: Default::default(),
            f_ack: Default::default(),
            header: Default::default(),
            dispatch: Default::default(),
            reason: Default::default(),
            silent: Default::default(),
            answer: Default::default(),
            answer_bits: Default::default(),
            last_answer: Default::default(),
            last_keys: Default::default(),
            stats_payload: Default::default(),
            scrub_started: Default::default(),
            scrubs_ended: Default::default(),
            fill_byte: Default::default(),
            walk: Default::default(),
            dump_accepted: Default::default(),
            dump_chunk: Default::default(),
            dump_byte_done: Default::default(),
            r_start: Default::default(),
            r_seq: Default::default(),
            r_code: Default::default(),
            r_len: Default::default(),
            pl_data: Default::default(),
            pl_valid: Default::default(),
            pl_take: Default::default(),
            r_idle: Default::default(),
            left: Default::default(),
            step: Default::default(),
            out_sr: Default::default(),
            out_left: Default::default(),
            resp_code: Default::default(),
            resp_len: Default::default(),
            then_fill: Default::default(),
            pl_valid_r: Default::default(),
            stats_len: Constant::new((stats_bytes as u64).into()),
            stats_fixed: Constant::new((super::STATS_FIXED_BYTES as u64).into()),
            config_len: Constant::new((config_block.len() as u64).into()),
            config_word: Constant::new(config_word),
        }
    }
}

// An arm whose only statement is an `if`: rust-hdl's `hdl_gen` has no match
// guards, so it stays an `if` inside the arm.
#[allow(clippy::collapsible_match)]
impl Logic for Responder {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out_sr, out_left, resp_code, resp_len, then_fill, pl_valid_r);
        self.f_ack.next = false;
        self.r_start.next = false;
        self.r_seq.next = self.header.seq.val();
        self.r_code.next = self.resp_code.q.val();
        self.r_len.next = self.resp_len.q.val();
        self.pl_data.next = self.out_sr.q.val().get_bits::<8>(0);
        self.pl_valid.next = self.pl_valid_r.q.val();
        self.pl_valid_r.d.next = false;
        self.left.next = self.out_left.q.val();
        self.step.claim.next = false;
        self.step.to.next = self.state.val();
        match self.state.val() {
            ExecState::Idle => {
                if self.f_done.val() {
                    self.then_fill.d.next = false;
                }
            }
            ExecState::Decode => {
                self.resp_code.d.next = self.header.op.val();
                if self.dispatch.stats.val() {
                    self.out_sr.d.next = self.config_word.val() | self.stats_payload.val();
                    self.out_left.d.next = self.stats_fixed.val();
                    self.resp_len.d.next = self.stats_len.val();
                    self.then_fill.d.next = true;
                }
                if self.dispatch.config_block.val() {
                    self.out_sr.d.next = self.config_word.val();
                    self.out_left.d.next = self.config_len.val();
                    self.resp_len.d.next = self.config_len.val();
                }
            }
            ExecState::Finish => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::RespondSr;
                self.out_sr.d.next = bit_cast::<320, 32>(self.answer.val());
                if self.silent.val() {
                    self.out_left.d.next = 0.into();
                    self.resp_len.d.next = 0.into();
                } else {
                    self.out_left.d.next = (self.answer_bits.val() + 7) >> 3;
                    self.resp_len.d.next = (self.answer_bits.val() + 7) >> 3;
                }
                if self.header.op.val() == 16 {
                    self.out_sr.d.next = bit_cast::<320, 1>(self.scrub_started.val().into())
                        | (bit_cast::<320, 8>(self.scrubs_ended.val()) << 8);
                    self.out_left.d.next = 2.into();
                    self.resp_len.d.next = 2.into();
                }
            }
            ExecState::Replay => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::RespondSr;
                self.out_sr.d.next = bit_cast::<320, 32>(self.last_answer.val());
                if self.silent.val() {
                    self.out_left.d.next = 0.into();
                    self.resp_len.d.next = 0.into();
                } else {
                    self.out_left.d.next = (self.last_keys.val() + 7) >> 3;
                    self.resp_len.d.next = (self.last_keys.val() + 7) >> 3;
                }
            }
            ExecState::Reject => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::RespondSr;
                self.resp_code.d.next = 0x80.into();
                self.out_sr.d.next = bit_cast::<320, 8>(self.reason.val())
                    | (bit_cast::<320, 8>(self.header.op.val()) << 8);
                self.out_left.d.next = 2.into();
                self.resp_len.d.next = 2.into();
            }
            ExecState::RespondSr => {
                self.step.claim.next = true;
                if self.r_idle.val() {
                    self.r_start.next = true;
                    self.f_ack.next = true;
                    if self.out_left.q.val() == 0 {
                        self.step.to.next = ExecState::Idle;
                    } else {
                        self.step.to.next = ExecState::EmitSr;
                        self.pl_valid_r.d.next = true;
                    }
                }
            }
            ExecState::EmitSr => {
                self.step.claim.next = true;
                self.pl_valid_r.d.next = !self.pl_take.val();
                if self.pl_take.val() {
                    self.step.to.next = ExecState::ShiftSr;
                }
            }
            ExecState::ShiftSr => {
                self.step.claim.next = true;
                self.step.to.next = ExecState::EmitSr;
                self.pl_valid_r.d.next = self.out_left.q.val() != 1;
                self.out_sr.d.next = self.out_sr.q.val() >> 8;
                self.out_left.d.next = self.out_left.q.val() - 1;
                if self.out_left.q.val() == 1 {
                    if self.then_fill.q.val() {
                        self.step.to.next = ExecState::FillSet;
                    } else {
                        self.step.to.next = ExecState::Idle;
                    }
                }
            }
            // The fills' and the dump's bytes, through the same hand-off.
            ExecState::FillWait => {
                if self.walk.wait.val() == 4 {
                    self.out_left.d.next = 3.into();
                    self.pl_valid_r.d.next = true;
                }
            }
            ExecState::EmitFill => {
                self.pl_valid_r.d.next = !self.pl_take.val();
                self.pl_data.next = self.fill_byte.val();
            }
            ExecState::ShiftFill => {
                self.pl_valid_r.d.next = self.out_left.q.val() != 1;
                self.out_left.d.next = self.out_left.q.val() - 1;
            }
            ExecState::DumpCheck => {
                if self.dump_accepted.val() {
                    self.resp_len.d.next = self.dump_chunk.val();
                    self.out_left.d.next = self.dump_chunk.val();
                }
            }
            ExecState::DumpStart => {
                if self.r_idle.val() {
                    self.r_start.next = true;
                    self.f_ack.next = true;
                }
            }
            ExecState::DumpWait => {
                if self.dump_byte_done.val() {
                    self.pl_valid_r.d.next = true;
                }
            }
            ExecState::DumpEmit => {
                self.pl_valid_r.d.next = !self.pl_take.val();
                self.pl_data.next = self.walk.byte.val();
            }
            ExecState::DumpNext => {
                self.out_left.d.next = self.out_left.q.val() - 1;
            }
            _ => {}
        }
        if self.reset.val() {
            self.pl_valid_r.d.next = false;
        }
    }
}
