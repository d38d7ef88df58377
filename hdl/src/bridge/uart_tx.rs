//! UART transmitter, 8N1, LSB first.
//!
//! `ready` is high while the transmitter is idle; a byte presented on `data`
//! with `start` high in a cycle where `ready` is high is accepted, and its start
//! bit appears on `txd` on the next clock edge. Each byte takes exactly
//! 10 * clocks_per_bit cycles (start, 8 data bits, one full stop bit) before
//! `ready` returns, so back-to-back bytes run at the full line rate.
//!
//! Latency: 1 cycle from accept to start bit. Memory: none. `reset` is
//! synchronous and active high: it abandons the byte in flight and idles the
//! line high.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct UartTx {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub data: Signal<In, Bits<8>>,
    pub start: Signal<In, Bit>,
    pub ready: Signal<Out, Bit>,
    /// The transmit pin (idle high).
    pub txd: Signal<Out, Bit>,
    /// Held inverted so that the power-up value 0 idles the line high.
    txd_n: DFF<Bit>,
    shifter: DFF<Bits<10>>,
    bits_left: DFF<Bits<4>>,
    countdown: DFF<Bits<16>>,
    full_bit: Constant<Bits<16>>,
}

impl UartTx {
    pub fn new(clocks_per_bit: u32) -> Self {
        assert!((4..=65535).contains(&clocks_per_bit));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            data: Default::default(),
            start: Default::default(),
            ready: Default::default(),
            txd: Default::default(),
            txd_n: Default::default(),
            shifter: Default::default(),
            bits_left: Default::default(),
            countdown: Default::default(),
            full_bit: Constant::new(((clocks_per_bit) as u64 - 1).into()),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, txd_n, shifter, bits_left, countdown);
        self.txd.next = !self.txd_n.q.val();
        self.ready.next = self.bits_left.q.val() == 0;
        if self.bits_left.q.val() == 0 {
            if self.start.val() {
                // Start bit now; then 8 data bits, the stop bit, and one idle
                // slot whose expiry marks the end of the stop bit.
                self.txd_n.d.next = true;
                self.shifter.d.next = bit_cast::<10, 8>(self.data.val()) | 0x300;
                self.bits_left.d.next = 10.into();
                self.countdown.d.next = self.full_bit.val();
            }
        } else if self.countdown.q.val() == 0 {
            self.txd_n.d.next = !self.shifter.q.val().get_bit(0);
            self.shifter.d.next = self.shifter.q.val() >> 1;
            self.bits_left.d.next = self.bits_left.q.val() - 1;
            self.countdown.d.next = self.full_bit.val();
        } else {
            self.countdown.d.next = self.countdown.q.val() - 1;
        }
        if self.reset.val() {
            self.txd_n.d.next = false;
            self.bits_left.d.next = 0.into();
        }
    }
}
