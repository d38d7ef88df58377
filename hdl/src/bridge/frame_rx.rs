//! Request frame receiver and CRC checker (docs/protocol.md §2).
//!
//! Hunts for the sync byte, then takes LEN, SEQ, OP, LEN-2 payload bytes and
//! the two CRC bytes, checking the CRC-16 over LEN..payload as the bytes go by.
//! The payload is written into a 256-byte buffer (one block RAM) that the
//! executor reads through `buf_raddr`/`buf_rdata`; nothing is executed here.
//! When the frame is complete, or has failed, `done` stays high with `status`
//! (0 = good frame, else the error reason of docs/protocol.md §4) until the
//! executor pulses `ack`; bytes arriving meanwhile are dropped (the host is
//! stop-and-wait, so only garbage or a premature retry can arrive then, and the
//! host's retry logic recovers from both).
//!
//! Resynchronisation: a LEN outside 2..=2+max_payload ends the frame at once
//! (BAD_LENGTH, unless it is itself a sync byte, which restarts the header); a
//! gap longer than `timeout_clocks` (+1) inside a frame ends it (TIMEOUT); any
//! failed frame returns the receiver to hunting for the sync byte.
//!
//! Latency: `done` rises 11 cycles after the last CRC byte's `rx_valid`
//! (the byte is registered once on entry).
//! Buffer: written in state Payload, read by the executor only while `done`
//! is high, so the same address is never read and written in one cycle; the
//! read data is registered (1 cycle latency).

use super::crc16::Crc16;
use rust_hdl::prelude::*;

/// Request sync byte. No valid LEN equals it, so a repeated sync restarts a header.
pub const REQUEST_SYNC: u8 = 0xFE;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum FrameRxState {
    Hunt,
    Len,
    Seq,
    Op,
    Payload,
    CrcHigh,
    CrcLow,
    Check,
    Hold,
}

#[derive(LogicBlock)]
pub struct FrameRx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rx_data: Signal<In, Bits<8>>,
    pub rx_valid: Signal<In, Bit>,
    pub done: Signal<Out, Bit>,
    pub status: Signal<Out, Bits<8>>,
    pub seq: Signal<Out, Bits<8>>,
    pub op: Signal<Out, Bits<8>>,
    pub payload_len: Signal<Out, Bits<8>>,
    pub ack: Signal<In, Bit>,
    pub buf_raddr: Signal<In, Bits<8>>,
    pub buf_rdata: Signal<Out, Bits<8>>,
    crc: Crc16,
    buffer: RAM<Bits<8>, 8>,
    state: DFF<FrameRxState>,
    remaining: DFF<Bits<8>>,
    wptr: DFF<Bits<8>>,
    /// Clocks left before the current gap counts as a timeout: loaded with the
    /// timeout by every byte, counts down to 0 (a down counter needs only a
    /// zero test, not a 32-bit compare after the increment).
    gap_timer: DFF<Bits<32>>,
    /// gap_timer == 0, registered (a cycle late) so the zero test does not
    /// feed the state register's enable in the same cycle. Cleared by a byte
    /// at once, so a long idle line cannot time out the next frame.
    gap_expired: DFF<Bit>,
    /// The UART's byte and strobe registered once more, with the header
    /// compares precomputed, so that decoding a byte never runs from the
    /// UART through the compares into the CRC/state enables in one cycle.
    rx_byte: DFF<Bits<8>>,
    rx_strobe: DFF<Bit>,
    rx_is_sync: DFF<Bit>,
    rx_len_bad: DFF<Bit>,
    seq_reg: DFF<Bits<8>>,
    op_reg: DFF<Bits<8>>,
    len_reg: DFF<Bits<8>>,
    status_reg: DFF<Bits<8>>,
    sync_byte: Constant<Bits<8>>,
    max_len: Constant<Bits<8>>,
    timeout: Constant<Bits<32>>,
}

impl FrameRx {
    pub fn new(max_payload: u32, timeout_clocks: u32) -> Self {
        assert!(max_payload <= 253 - 2);
        assert!(timeout_clocks > 0);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rx_data: Default::default(),
            rx_valid: Default::default(),
            done: Default::default(),
            status: Default::default(),
            seq: Default::default(),
            op: Default::default(),
            payload_len: Default::default(),
            ack: Default::default(),
            buf_raddr: Default::default(),
            buf_rdata: Default::default(),
            crc: Default::default(),
            buffer: Default::default(),
            state: Default::default(),
            remaining: Default::default(),
            wptr: Default::default(),
            gap_timer: Default::default(),
            gap_expired: Default::default(),
            rx_byte: Default::default(),
            rx_strobe: Default::default(),
            rx_is_sync: Default::default(),
            rx_len_bad: Default::default(),
            seq_reg: Default::default(),
            op_reg: Default::default(),
            len_reg: Default::default(),
            status_reg: Default::default(),
            sync_byte: Constant::new((REQUEST_SYNC as u64).into()),
            max_len: Constant::new(((max_payload + 2) as u64).into()),
            timeout: Constant::new((timeout_clocks as u64).into()),
        }
    }
}

impl Logic for FrameRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            remaining,
            wptr,
            gap_timer,
            gap_expired,
            seq_reg,
            op_reg,
            len_reg,
            status_reg,
            rx_byte,
            rx_strobe,
            rx_is_sync,
            rx_len_bad
        );
        self.rx_byte.d.next = self.rx_data.val();
        self.rx_strobe.d.next = self.rx_valid.val();
        self.rx_is_sync.d.next = self.rx_data.val() == self.sync_byte.val();
        self.rx_len_bad.d.next =
            (self.rx_data.val() < 2) | (self.rx_data.val() > self.max_len.val());
        clock!(self, clock, crc);
        self.buffer.read_clock.next = self.clock.val();
        self.buffer.write_clock.next = self.clock.val();
        self.buffer.read_address.next = self.buf_raddr.val();
        self.buf_rdata.next = self.buffer.read_data.val();
        self.buffer.write_address.next = self.wptr.q.val();
        self.buffer.write_data.next = self.rx_byte.q.val();
        self.buffer.write_enable.next = false;

        self.done.next = self.state.q.val() == FrameRxState::Hold;
        self.status.next = self.status_reg.q.val();
        self.seq.next = self.seq_reg.q.val();
        self.op.next = self.op_reg.q.val();
        self.payload_len.next = self.len_reg.q.val() - 2;

        self.crc.data.next = self.rx_byte.q.val();
        self.crc.init.next = false;
        self.crc.strobe.next = false;

        if self.rx_strobe.q.val() {
            self.gap_timer.d.next = self.timeout.val();
        } else if self.gap_timer.q.val() != 0 {
            self.gap_timer.d.next = self.gap_timer.q.val() - 1;
        }
        self.gap_expired.d.next = (self.gap_timer.q.val() == 0) & !self.rx_strobe.q.val();

        match self.state.q.val() {
            FrameRxState::Hunt => {
                if self.rx_strobe.q.val() & self.rx_is_sync.q.val() {
                    self.crc.init.next = true;
                    self.seq_reg.d.next = 0.into();
                    self.op_reg.d.next = 0.into();
                    self.len_reg.d.next = 2.into();
                    self.state.d.next = FrameRxState::Len;
                }
            }
            FrameRxState::Len => {
                if self.rx_strobe.q.val() {
                    if self.rx_is_sync.q.val() {
                        self.crc.init.next = true;
                    } else if self.rx_len_bad.q.val() {
                        self.status_reg.d.next = 2.into();
                        self.state.d.next = FrameRxState::Hold;
                    } else {
                        self.crc.strobe.next = true;
                        self.len_reg.d.next = self.rx_byte.q.val();
                        self.remaining.d.next = self.rx_byte.q.val() - 2;
                        self.state.d.next = FrameRxState::Seq;
                    }
                }
            }
            FrameRxState::Seq => {
                if self.rx_strobe.q.val() {
                    self.crc.strobe.next = true;
                    self.seq_reg.d.next = self.rx_byte.q.val();
                    self.state.d.next = FrameRxState::Op;
                }
            }
            FrameRxState::Op => {
                if self.rx_strobe.q.val() {
                    self.crc.strobe.next = true;
                    self.op_reg.d.next = self.rx_byte.q.val();
                    self.wptr.d.next = 0.into();
                    if self.remaining.q.val() == 0 {
                        self.state.d.next = FrameRxState::CrcHigh;
                    } else {
                        self.state.d.next = FrameRxState::Payload;
                    }
                }
            }
            FrameRxState::Payload => {
                if self.rx_strobe.q.val() {
                    self.crc.strobe.next = true;
                    self.buffer.write_enable.next = true;
                    self.wptr.d.next = self.wptr.q.val() + 1;
                    self.remaining.d.next = self.remaining.q.val() - 1;
                    if self.remaining.q.val() == 1 {
                        self.state.d.next = FrameRxState::CrcHigh;
                    }
                }
            }
            FrameRxState::CrcHigh => {
                if self.rx_strobe.q.val() {
                    self.crc.strobe.next = true;
                    self.state.d.next = FrameRxState::CrcLow;
                }
            }
            FrameRxState::CrcLow => {
                if self.rx_strobe.q.val() {
                    self.crc.strobe.next = true;
                    self.state.d.next = FrameRxState::Check;
                }
            }
            FrameRxState::Check => {
                if !self.crc.busy.val() {
                    if self.crc.crc.val() == 0 {
                        self.status_reg.d.next = 0.into();
                    } else {
                        self.status_reg.d.next = 1.into();
                    }
                    self.state.d.next = FrameRxState::Hold;
                }
            }
            FrameRxState::Hold => {
                if self.ack.val() {
                    self.state.d.next = FrameRxState::Hunt;
                }
            }
            _ => {
                self.state.d.next = FrameRxState::Hunt;
            }
        }
        // A gap inside a frame: the frame is truncated.
        if (self.state.q.val() != FrameRxState::Hunt)
            & (self.state.q.val() != FrameRxState::Check)
            & (self.state.q.val() != FrameRxState::Hold)
            & self.gap_expired.q.val()
        {
            self.status_reg.d.next = 4.into();
            self.state.d.next = FrameRxState::Hold;
        }
        if self.reset.val() {
            self.state.d.next = FrameRxState::Hunt;
        }
    }
}
