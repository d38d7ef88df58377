//! CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xorout),
//! one bit per clock cycle.
//!
//! `init` (one cycle) sets the register to 0xFFFF; `strobe` (one cycle, only
//! while `busy` is low) loads a byte, which is folded in MSB first over the next
//! 8 cycles while `busy` is high. Running a frame's bytes followed by its CRC
//! (high byte first) leaves `crc` = 0, which is how the receiver checks frames.
//!
//! Latency: 8 cycles per byte. A byte arrives from the UART at most every
//! 10 * clocks_per_bit >= 40 cycles, so the unit never falls behind. Memory: none.

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Crc16 {
    pub clock: Signal<In, Clock>,
    pub init: Signal<In, Bit>,
    pub strobe: Signal<In, Bit>,
    pub data: Signal<In, Bits<8>>,
    pub crc: Signal<Out, Bits<16>>,
    pub busy: Signal<Out, Bit>,
    remainder: DFF<Bits<16>>,
    pending: DFF<Bits<8>>,
    bits_left: DFF<Bits<4>>,
    /// bits_left != 0 of the next cycle, so `busy` comes straight from a
    /// flip-flop (it gates the framer's payload hand-off).
    busy_r: DFF<Bit>,
}

impl Logic for Crc16 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, remainder, pending, bits_left, busy_r);
        self.crc.next = self.remainder.q.val();
        self.busy.next = self.busy_r.q.val();
        self.busy_r.d.next =
            (self.bits_left.q.val() > 1) | ((self.bits_left.q.val() == 0) & self.strobe.val());
        if self.bits_left.q.val() != 0 {
            if self.remainder.q.val().get_bit(15) ^ self.pending.q.val().get_bit(7) {
                self.remainder.d.next = (self.remainder.q.val() << 1) ^ 0x1021;
            } else {
                self.remainder.d.next = self.remainder.q.val() << 1;
            }
            self.pending.d.next = self.pending.q.val() << 1;
            self.bits_left.d.next = self.bits_left.q.val() - 1;
        } else if self.strobe.val() {
            self.pending.d.next = self.data.val();
            self.bits_left.d.next = 8.into();
        }
        if self.init.val() {
            self.remainder.d.next = 0xFFFF.into();
            self.bits_left.d.next = 0.into();
            self.busy_r.d.next = false;
        }
    }
}
