//! The host bridge: UART receiver -> frame receiver -> executor -> response
//! framer -> UART transmitter, with `bloom_core`'s ports (as its driver sees
//! them, `ports::CoreDriver`, `ports::CounterDriver` and `ports::ScrubDriver`) left open so the board top (or a test) can
//! attach a core.
//!
//! Latency: see the blocks; end to end, a response's first start bit leaves
//! about 4 + 11 + executor latency cycles after the middle of the request's
//! last stop bit. Memory: the frame receiver's payload buffer only (see
//! frame_rx.rs for its read/write discipline). Reset: each block gets its own
//! registered copy of `reset` (one cycle later), so no single flip-flop fans
//! out to the whole bridge.

use super::executor::{Executor, ExecutorParams};
use super::frame_rx::FrameRx;
use super::resp_tx::RespTx;
use super::uart_rx::UartRx;
use super::uart_tx::UartTx;
use crate::ports::{CoreDriver, CounterDriver, ScrubDriver};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct HostBridge {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub uart_rx: Signal<In, Bit>,
    pub uart_tx: Signal<Out, Bit>,
    /// To the core (bloom_core's ports; req_key carries the key in bits W-1..0).
    pub core: CoreDriver<128>,
    /// To a counting core's counter group.
    pub counter: CounterDriver<128>,
    /// To the core's scrub ports.
    pub scrub: ScrubDriver<128>,
    pub last_rejected: Signal<Out, Bit>,
    rx: UartRx,
    tx: UartTx,
    frames: FrameRx,
    exec: Executor,
    framer: RespTx,
    reset_rx: DFF<Bit>,
    reset_tx: DFF<Bit>,
    reset_frames: DFF<Bit>,
    reset_exec: DFF<Bit>,
    reset_framer: DFF<Bit>,
}

impl HostBridge {
    pub fn new(clocks_per_bit: u32, timeout_clocks: u32, params: &ExecutorParams) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            uart_rx: Default::default(),
            uart_tx: Default::default(),
            core: Default::default(),
            counter: Default::default(),
            scrub: Default::default(),
            last_rejected: Default::default(),
            rx: UartRx::new(clocks_per_bit),
            tx: UartTx::new(clocks_per_bit),
            frames: FrameRx::new(super::MAX_PAYLOAD_BYTES, timeout_clocks),
            exec: Executor::new(params),
            framer: RespTx::default(),
            reset_rx: Default::default(),
            reset_tx: Default::default(),
            reset_frames: Default::default(),
            reset_exec: Default::default(),
            reset_framer: Default::default(),
        }
    }
}

impl Logic for HostBridge {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, rx, tx, frames, exec, framer);
        dff_setup!(
            self,
            clock,
            reset_rx,
            reset_tx,
            reset_frames,
            reset_exec,
            reset_framer
        );
        self.reset_rx.d.next = self.reset.val();
        self.reset_tx.d.next = self.reset.val();
        self.reset_frames.d.next = self.reset.val();
        self.reset_exec.d.next = self.reset.val();
        self.reset_framer.d.next = self.reset.val();
        self.rx.reset.next = self.reset_rx.q.val();
        self.tx.reset.next = self.reset_tx.q.val();
        self.frames.reset.next = self.reset_frames.q.val();
        self.exec.reset.next = self.reset_exec.q.val();
        self.framer.reset.next = self.reset_framer.q.val();

        self.rx.rxd.next = self.uart_rx.val();
        self.frames.rx_data.next = self.rx.data.val();
        self.frames.rx_valid.next = self.rx.valid.val();

        self.exec.f_done.next = self.frames.done.val();
        self.exec.f_status.next = self.frames.status.val();
        self.exec.f_seq.next = self.frames.seq.val();
        self.exec.f_op.next = self.frames.op.val();
        self.exec.f_len.next = self.frames.payload_len.val();
        self.frames.ack.next = self.exec.f_ack.val();
        self.frames.buf_raddr.next = self.exec.buf_raddr.val();
        self.exec.buf_rdata.next = self.frames.buf_rdata.val();

        self.framer.start.next = self.exec.r_start.val();
        self.framer.seq.next = self.exec.r_seq.val();
        self.framer.code.next = self.exec.r_code.val();
        self.framer.payload_len.next = self.exec.r_len.val();
        self.framer.pl_data.next = self.exec.pl_data.val();
        self.framer.pl_valid.next = self.exec.pl_valid.val();
        self.exec.pl_take.next = self.framer.pl_take.val();
        self.exec.r_idle.next = self.framer.idle.val();

        self.tx.data.next = self.framer.tx_data.val();
        self.tx.start.next = self.framer.tx_start.val();
        self.framer.tx_ready.next = self.tx.ready.val();
        self.uart_tx.next = self.tx.txd.val();

        CoreDriver::<128>::link(&mut self.core, &mut self.exec.core);
        CounterDriver::<128>::link(&mut self.counter, &mut self.exec.counter);
        ScrubDriver::<128>::link(&mut self.scrub, &mut self.exec.scrub);
        self.last_rejected.next = self.exec.last_rejected.val();
    }
}
