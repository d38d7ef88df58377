//! A real serial port (e.g. the board's FTDI UART), through the `serialport`
//! crate without its libudev feature (port enumeration is not needed: the
//! user names the port).

use crate::transport::Transport;
use crate::HostError;
use std::time::{Duration, Instant};

pub struct SerialPort {
    name: String,
    port: Box<dyn serialport::SerialPort>,
    baud: u32,
    latency: Duration,
}

/// What a wait for an answer allows beyond the line time: a USB serial
/// adapter delivers in bursts (its latency timer, typically 1-16 ms).
pub const DEFAULT_LATENCY: Duration = Duration::from_millis(20);

impl SerialPort {
    pub fn open(name: &str, baud: u32) -> Result<SerialPort, HostError> {
        if !std::path::Path::new(name).exists() {
            return Err(HostError::Setup(format!(
                "serial port {name} does not exist"
            )));
        }
        let port = serialport::new(name, baud)
            .data_bits(serialport::DataBits::Eight)
            .parity(serialport::Parity::None)
            .stop_bits(serialport::StopBits::One)
            .flow_control(serialport::FlowControl::None)
            .timeout(Duration::from_millis(2))
            .open()
            .map_err(|e| {
                HostError::Setup(format!(
                    "cannot open serial port {name} at {baud} baud: {e}"
                ))
            })?;
        let _ = port.clear(serialport::ClearBuffer::All);
        Ok(SerialPort {
            name: name.to_string(),
            port,
            baud,
            latency: DEFAULT_LATENCY,
        })
    }

    /// Allows `latency` beyond the line time for every answer (default
    /// [`DEFAULT_LATENCY`]): for adapters with a longer latency timer, or a
    /// simulated board on a busy machine. A longer one makes a lost frame
    /// cost more before its resend, never changes what is executed.
    pub fn set_latency(&mut self, latency: Duration) {
        self.latency = latency;
    }

    fn bit_time(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.baud as f64)
    }
}

impl Transport for SerialPort {
    fn write(&mut self, bytes: &[u8]) -> Result<(), HostError> {
        std::io::Write::write_all(&mut self.port, bytes)
            .map_err(|e| HostError::Transport(format!("{}: {e}", self.name)))
    }

    fn read(&mut self, max_bits: u64) -> Result<(Vec<u8>, u64), HostError> {
        // Returns with the first bytes that arrive (and whatever came with
        // them): the client reassembles frames across reads, so waiting for
        // the line to go quiet would only add a delay to every answer.
        let start = Instant::now();
        let total = self.bit_time() * max_bits.min(u32::MAX as u64) as u32 + self.latency;
        let mut got = vec![];
        let mut buf = [0u8; 512];
        loop {
            match std::io::Read::read(&mut self.port, &mut buf) {
                Ok(n) if n > 0 => {
                    got.extend_from_slice(&buf[..n]);
                    if n == buf.len() {
                        continue;
                    }
                    break;
                }
                Ok(_) => {}
                Err(e)
                    if e.kind() == std::io::ErrorKind::TimedOut
                        || e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(HostError::Transport(format!("{}: {e}", self.name))),
            }
            if !got.is_empty() || start.elapsed() >= total {
                break;
            }
        }
        let bits =
            ((start.elapsed().as_secs_f64() * self.baud as f64) as u64).clamp(1, max_bits.max(1));
        Ok((got, bits))
    }

    fn baud(&self) -> u32 {
        self.baud
    }

    fn describe(&self) -> String {
        format!("serial port {} at {} baud", self.name, self.baud)
    }
}
