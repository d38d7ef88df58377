//! Where the bytes go: a trait, and the two lines behind it (a serial port in
//! `serial.rs`, the Verilated board top in `sim_board.rs`).

use crate::HostError;

/// A full-duplex byte line. Time is counted in bit times of the line, so the
/// host logic is the same for a real port and for a simulated one.
pub trait Transport {
    /// Queues bytes for sending (the call may return before they are on the wire).
    fn write(&mut self, bytes: &[u8]) -> Result<(), HostError>;
    /// Waits at most `max_bits` bit times for received bytes. Returns once
    /// some bytes arrived (a line may hand over the rest of a frame in a
    /// later read, or wait for the line to go quiet first) or at `max_bits`,
    /// with what arrived (maybe nothing) and the bit times that passed.
    fn read(&mut self, max_bits: u64) -> Result<(Vec<u8>, u64), HostError>;
    /// Nominal baud rate.
    fn baud(&self) -> u32;
    /// For error messages: "serial port /dev/ttyUSB1 at 115200 baud", ...
    fn describe(&self) -> String;
    /// A simulated line's own time so far, in seconds at its nominal clock
    /// (exact, whatever the machine); None for a real line, whose time is
    /// the wall clock's.
    fn simulated_seconds(&self) -> Option<f64> {
        None
    }
}
