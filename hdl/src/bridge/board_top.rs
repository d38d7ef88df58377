//! The board top: host bridge + filter core + power-on reset + status LEDs.
//!
//! Ports (exact Verilog names of module `bloom_board`):
//!   input  clock      board oscillator, frequency = BridgeParams::clock_hz
//!   input  reset      synchronous, active high; tie to 0 if the board has no button
//!   input  uart_rx    from the host (FTDI TXD), idle high
//!   output uart_tx    to the host (FTDI RXD), idle high
//!   output [3:0] leds leds[0] heartbeat (~1 Hz), leds[1] receive activity,
//!                     leds[2] transmit activity, leds[3] last frame was rejected
//! The core and the bridge are held in reset for the first 16 cycles after
//! configuration (and while `reset` is high). Latency: that of the bridge and
//! core; this block adds only the reset registers (1 cycle on reset). The
//! bridge and the core each get their own registered copy of the reset, so
//! the power-on counter never drives a wide fan-out (on ECP5 it was the
//! critical path into the executor's state enable).
//! Memory: none of its own.

use super::core_box::BridgeBox;
use super::executor::ExecutorParams;
use super::host_bridge::HostBridge;
use crate::ports::{CoreDriver, CounterDriver, ScrubDriver};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct BoardTop {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub uart_rx: Signal<In, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    pub leds: Signal<Out, Bits<4>>,
    bridge: HostBridge,
    core: BridgeBox<128>,
    por: DFF<Bits<4>>,
    reset_bridge: DFF<Bit>,
    reset_core: DFF<Bit>,
    heartbeat: DFF<Bits<32>>,
    heartbeat_bit: Constant<Bits<8>>,
}

impl BoardTop {
    pub fn new(
        clock_hz: u64,
        clocks_per_bit: u32,
        timeout_clocks: u32,
        params: &ExecutorParams,
        core_verilog: String,
        core_top: String,
    ) -> Self {
        let heartbeat_bit = (63 - clock_hz.max(2).leading_zeros()).clamp(1, 31) as u64;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            leds: Default::default(),
            bridge: HostBridge::new(clocks_per_bit, timeout_clocks, params),
            core: BridgeBox::new(core_verilog, core_top, &params.core),
            por: Default::default(),
            reset_bridge: Default::default(),
            reset_core: Default::default(),
            heartbeat: Default::default(),
            heartbeat_bit: Constant::new(heartbeat_bit.into()),
        }
    }
}

impl Logic for BoardTop {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, por, heartbeat, reset_bridge, reset_core);
        clock!(self, clock, bridge);
        self.core.sys.clock.next = self.clock.val();
        self.heartbeat.d.next = self.heartbeat.q.val() + 1;
        if self.por.q.val() != 15 {
            self.por.d.next = self.por.q.val() + 1;
        }
        self.reset_bridge.d.next = self.reset.val() | (self.por.q.val() != 15);
        self.reset_core.d.next = self.reset.val() | (self.por.q.val() != 15);
        self.bridge.reset.next = self.reset_bridge.q.val();
        self.core.sys.reset.next = self.reset_core.q.val();

        self.bridge.uart_rx.next = self.uart_rx.val();
        self.uart_tx.next = self.bridge.uart_tx.val();

        CoreDriver::<128>::join(&mut self.bridge.core, &mut self.core.io);
        CounterDriver::<128>::join(&mut self.bridge.counter, &mut self.core.counter);
        ScrubDriver::<128>::join(&mut self.bridge.scrub, &mut self.core.scrub);

        self.leds.next = bit_cast::<4, 1>(
            self.heartbeat
                .q
                .val()
                .get_bit(self.heartbeat_bit.val().index())
                .into(),
        ) | (bit_cast::<4, 1>((!self.uart_rx.val()).into()) << 1)
            | (bit_cast::<4, 1>((!self.bridge.uart_tx.val()).into()) << 2)
            | (bit_cast::<4, 1>(self.bridge.last_rejected.val().into()) << 3);
    }
}
