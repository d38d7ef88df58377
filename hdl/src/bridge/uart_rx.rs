//! UART receiver, 8 data bits, no parity, 1 stop bit (8N1), LSB first.
//!
//! The line is sampled through a two-flop synchroniser (held inverted so the
//! power-up value 0 means "idle line"), a falling edge starts a byte, the start
//! bit is re-checked half a bit later (a shorter glitch is ignored), and every
//! following bit is sampled in the middle of its bit time. A byte is delivered
//! in the middle of its stop bit, so the receiver is ready for the next start
//! edge half a bit early and tolerates ~±4% baud mismatch; a byte whose stop bit
//! reads 0 is dropped and reported on `framing_error`.
//!
//! Latency: `valid` pulses one clock cycle 2 + 9.5 * clocks_per_bit cycles after
//! the start edge reaches the pin. Memory: none (no same-address read/write
//! question arises). `reset` is synchronous and active high.

use rust_hdl::prelude::*;

#[derive(Copy, Clone, PartialEq, Debug, LogicState)]
pub enum UartRxState {
    Idle,
    Start,
    Data,
    Stop,
}

#[derive(LogicBlock)]
pub struct UartRx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// The raw receive pin (idle high).
    pub rxd: Signal<In, Bit>,
    /// The received byte; valid while `valid` is high (one cycle).
    pub data: Signal<Out, Bits<8>>,
    pub valid: Signal<Out, Bit>,
    /// One-cycle pulse: a byte's stop bit was 0; the byte was dropped.
    pub framing_error: Signal<Out, Bit>,
    line_n_meta: DFF<Bit>,
    line_n: DFF<Bit>,
    state: DFF<UartRxState>,
    countdown: DFF<Bits<16>>,
    bit_index: DFF<Bits<3>>,
    shifter: DFF<Bits<8>>,
    out_data: DFF<Bits<8>>,
    out_valid: DFF<Bit>,
    out_ferr: DFF<Bit>,
    half_bit: Constant<Bits<16>>,
    full_bit: Constant<Bits<16>>,
}

impl UartRx {
    /// `clocks_per_bit` must be at least 4 and fit in 16 bits (checked by
    /// [`super::BridgeParams::validate`]).
    pub fn new(clocks_per_bit: u32) -> Self {
        assert!((4..=65535).contains(&clocks_per_bit));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rxd: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            framing_error: Default::default(),
            line_n_meta: Default::default(),
            line_n: Default::default(),
            state: Default::default(),
            countdown: Default::default(),
            bit_index: Default::default(),
            shifter: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_ferr: Default::default(),
            // The counter runs from N-1 down to 0, hence the -1.
            half_bit: Constant::new(((clocks_per_bit / 2) as u64 - 1).into()),
            full_bit: Constant::new(((clocks_per_bit) as u64 - 1).into()),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            line_n_meta,
            line_n,
            state,
            countdown,
            bit_index,
            shifter,
            out_data,
            out_valid,
            out_ferr
        );
        self.line_n_meta.d.next = !self.rxd.val();
        self.line_n.d.next = self.line_n_meta.q.val();
        self.data.next = self.out_data.q.val();
        self.valid.next = self.out_valid.q.val();
        self.framing_error.next = self.out_ferr.q.val();
        self.out_valid.d.next = false;
        self.out_ferr.d.next = false;
        if self.countdown.q.val() != 0 {
            self.countdown.d.next = self.countdown.q.val() - 1;
        }
        match self.state.q.val() {
            UartRxState::Idle => {
                if self.line_n.q.val() {
                    self.countdown.d.next = self.half_bit.val();
                    self.state.d.next = UartRxState::Start;
                }
            }
            UartRxState::Start => {
                if self.countdown.q.val() == 0 {
                    if self.line_n.q.val() {
                        self.countdown.d.next = self.full_bit.val();
                        self.bit_index.d.next = 0.into();
                        self.state.d.next = UartRxState::Data;
                    } else {
                        self.state.d.next = UartRxState::Idle;
                    }
                }
            }
            UartRxState::Data => {
                if self.countdown.q.val() == 0 {
                    self.shifter.d.next =
                        (self.shifter.q.val() >> 1).replace_bit(7, !self.line_n.q.val());
                    self.countdown.d.next = self.full_bit.val();
                    self.bit_index.d.next = self.bit_index.q.val() + 1;
                    if self.bit_index.q.val() == 7 {
                        self.state.d.next = UartRxState::Stop;
                    }
                }
            }
            UartRxState::Stop => {
                if self.countdown.q.val() == 0 {
                    if self.line_n.q.val() {
                        self.out_ferr.d.next = true;
                    } else {
                        self.out_data.d.next = self.shifter.q.val();
                        self.out_valid.d.next = true;
                    }
                    self.state.d.next = UartRxState::Idle;
                }
            }
            _ => {
                self.state.d.next = UartRxState::Idle;
            }
        }
        if self.reset.val() {
            self.state.d.next = UartRxState::Idle;
            self.countdown.d.next = 0.into();
        }
    }
}
