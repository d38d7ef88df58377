//! Response framer (docs/protocol.md §3).
//!
//! On `start` (accepted only while `idle`) it latches SEQ, CODE and the payload
//! length, then sends SYNC, LEN = 2 + payload length, SEQ, CODE, the payload
//! bytes pulled one at a time from the executor (`pl_valid`/`pl_data`, taken
//! in a cycle where `pl_take` pulses) and the CRC-16 of LEN..payload, high byte
//! first, to the UART transmitter. The CRC is folded in as each byte is handed
//! to the transmitter, so nothing is buffered here.
//!
//! Latency: the sync byte is handed to the transmitter 2 cycles after `start`;
//! afterwards the line is the only limit (one byte per 10 bit times plus one
//! cycle) as long as the executor has the next payload byte ready within one
//! byte time. `tx_start`/`tx_data` come from flip-flops (the hand-off decision
//! is a long path through the executor's payload logic and the CRC unit), so
//! the transmitter sees a byte one cycle after it was chosen; no new byte is
//! chosen in that cycle, while the transmitter's `ready` is not yet low.
//! Memory: none.

use super::crc16::Crc16;
use rust_hdl::prelude::*;

/// Response sync byte (distinct from the request sync so that a host reading
/// back its own echo, e.g. on a loopback, never mistakes a request for a response).
pub const RESPONSE_SYNC: u8 = 0xFD;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum RespTxState {
    Idle,
    Sync,
    Len,
    Seq,
    Code,
    Payload,
    CrcHigh,
    CrcLow,
}

#[derive(LogicBlock)]
pub struct RespTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub start: Signal<In, Bit>,
    pub seq: Signal<In, Bits<8>>,
    pub code: Signal<In, Bits<8>>,
    pub payload_len: Signal<In, Bits<8>>,
    pub pl_data: Signal<In, Bits<8>>,
    pub pl_valid: Signal<In, Bit>,
    pub pl_take: Signal<Out, Bit>,
    pub idle: Signal<Out, Bit>,
    pub tx_data: Signal<Out, Bits<8>>,
    pub tx_start: Signal<Out, Bit>,
    pub tx_ready: Signal<In, Bit>,
    crc: Crc16,
    state: DFF<RespTxState>,
    seq_reg: DFF<Bits<8>>,
    code_reg: DFF<Bits<8>>,
    len_reg: DFF<Bits<8>>,
    remaining: DFF<Bits<8>>,
    tx_start_r: DFF<Bit>,
    tx_data_r: DFF<Bits<8>>,
    /// The transmitter can take a byte chosen in this cycle.
    can_send: Signal<Local, Bit>,
    sync_byte: Constant<Bits<8>>,
}

impl Default for RespTx {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            seq: Default::default(),
            code: Default::default(),
            payload_len: Default::default(),
            pl_data: Default::default(),
            pl_valid: Default::default(),
            pl_take: Default::default(),
            idle: Default::default(),
            tx_data: Default::default(),
            tx_start: Default::default(),
            tx_ready: Default::default(),
            crc: Default::default(),
            state: Default::default(),
            seq_reg: Default::default(),
            code_reg: Default::default(),
            len_reg: Default::default(),
            remaining: Default::default(),
            tx_start_r: Default::default(),
            tx_data_r: Default::default(),
            can_send: Default::default(),
            sync_byte: Constant::new((RESPONSE_SYNC as u64).into()),
        }
    }
}

impl Logic for RespTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, seq_reg, code_reg, len_reg, remaining, tx_start_r, tx_data_r
        );
        clock!(self, clock, crc);
        self.idle.next = self.state.q.val() == RespTxState::Idle;
        self.pl_take.next = false;
        self.tx_start.next = self.tx_start_r.q.val();
        self.tx_data.next = self.tx_data_r.q.val();
        self.tx_start_r.d.next = false;
        self.can_send.next = self.tx_ready.val() & !self.tx_start_r.q.val();
        self.crc.init.next = false;
        self.crc.strobe.next = false;
        self.crc.data.next = self.sync_byte.val();
        match self.state.q.val() {
            RespTxState::Idle => {
                if self.start.val() {
                    self.seq_reg.d.next = self.seq.val();
                    self.code_reg.d.next = self.code.val();
                    self.len_reg.d.next = self.payload_len.val() + 2;
                    self.remaining.d.next = self.payload_len.val();
                    self.crc.init.next = true;
                    self.state.d.next = RespTxState::Sync;
                }
            }
            RespTxState::Sync => {
                self.tx_data_r.d.next = self.sync_byte.val();
                if self.can_send.val() {
                    self.tx_start_r.d.next = true;
                    self.state.d.next = RespTxState::Len;
                }
            }
            RespTxState::Len => {
                self.tx_data_r.d.next = self.len_reg.q.val();
                self.crc.data.next = self.len_reg.q.val();
                if self.can_send.val() & !self.crc.busy.val() {
                    self.tx_start_r.d.next = true;
                    self.crc.strobe.next = true;
                    self.state.d.next = RespTxState::Seq;
                }
            }
            RespTxState::Seq => {
                self.tx_data_r.d.next = self.seq_reg.q.val();
                self.crc.data.next = self.seq_reg.q.val();
                if self.can_send.val() & !self.crc.busy.val() {
                    self.tx_start_r.d.next = true;
                    self.crc.strobe.next = true;
                    self.state.d.next = RespTxState::Code;
                }
            }
            RespTxState::Code => {
                self.tx_data_r.d.next = self.code_reg.q.val();
                self.crc.data.next = self.code_reg.q.val();
                if self.can_send.val() & !self.crc.busy.val() {
                    self.tx_start_r.d.next = true;
                    self.crc.strobe.next = true;
                    if self.remaining.q.val() == 0 {
                        self.state.d.next = RespTxState::CrcHigh;
                    } else {
                        self.state.d.next = RespTxState::Payload;
                    }
                }
            }
            RespTxState::Payload => {
                self.tx_data_r.d.next = self.pl_data.val();
                self.crc.data.next = self.pl_data.val();
                if self.can_send.val() & !self.crc.busy.val() & self.pl_valid.val() {
                    self.tx_start_r.d.next = true;
                    self.crc.strobe.next = true;
                    self.pl_take.next = true;
                    self.remaining.d.next = self.remaining.q.val() - 1;
                    if self.remaining.q.val() == 1 {
                        self.state.d.next = RespTxState::CrcHigh;
                    }
                }
            }
            RespTxState::CrcHigh => {
                self.tx_data_r.d.next = self.crc.crc.val().get_bits::<8>(8);
                if self.can_send.val() & !self.crc.busy.val() {
                    self.tx_start_r.d.next = true;
                    self.state.d.next = RespTxState::CrcLow;
                }
            }
            RespTxState::CrcLow => {
                self.tx_data_r.d.next = self.crc.crc.val().get_bits::<8>(0);
                if self.can_send.val() {
                    self.tx_start_r.d.next = true;
                    self.state.d.next = RespTxState::Idle;
                }
            }
            _ => {
                self.state.d.next = RespTxState::Idle;
            }
        }
        if self.reset.val() {
            self.state.d.next = RespTxState::Idle;
            self.tx_start_r.d.next = false;
        }
    }
}
