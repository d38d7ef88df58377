//! The board top (bridge + core) in Verilator, driven bit by bit through its
//! `uart_rx` / `uart_tx` pins, with optional faults injected on the line.
//!
//! The clock is `clocks_per_bit` times the nominal baud rate; the protocol
//! logic counts bytes, so results at 8 clocks per bit hold at any baud rate
//! (docs/protocol.md §7).

use crate::transport::Transport;
use crate::HostError;
use hdl::bridge::{generate_board_top, BoardTopConfig};
use sim::{InitialState, Model, PortId};
use std::collections::VecDeque;

/// Faults injected on the simulated line, per byte, from a seeded generator.
#[derive(Clone, Debug, Default)]
pub struct LineFaults {
    pub seed: u64,
    /// Probability that a host->board byte has one bit flipped.
    pub flip: f64,
    /// Probability that a host->board byte is dropped.
    pub drop: f64,
    /// Probability that 1..8 random garbage bytes are sent before a write.
    pub garbage: f64,
    /// Probability that a write is cut short (the rest of it never sent).
    pub truncate: f64,
    /// Probability that a board->host byte has one bit flipped.
    pub flip_back: f64,
    /// Probability that a board->host byte is dropped.
    pub drop_back: f64,
}

/// What the fault injector did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultCounts {
    pub flipped: u64,
    pub dropped: u64,
    pub garbage_bursts: u64,
    pub truncated: u64,
    pub flipped_back: u64,
    pub dropped_back: u64,
}

use golden::rng::SplitMix64 as Rng;

pub struct SimBoard {
    model: Model,
    uart_rx: PortId,
    uart_tx: PortId,
    cpb: u32,
    baud: u32,
    /// Host->board line levels still to be driven, one entry per bit.
    outgoing: VecDeque<bool>,
    /// Board->host sampler: None while idle, else (cycles since start edge, shifter).
    sample: Option<(u32, u16)>,
    prev_level: bool,
    faults: LineFaults,
    rng: Rng,
    pub fault_counts: FaultCounts,
    cycles: u64,
    in_buf: Vec<u32>,
    out_buf: Vec<u32>,
    /// The core's banks and their size, and whether they are open to [`SimBoard::soft_error`].
    k: usize,
    bank_size: usize,
    open_banks: bool,
}

impl SimBoard {
    /// Builds (or takes from the cache) the Verilated board top for `core`,
    /// at `clocks_per_bit` cycles per bit, with the board's truncation timeout
    /// set to `timeout_bits`.
    pub fn new(
        core: hdl::CoreConfig,
        baud: u32,
        clocks_per_bit: u32,
        timeout_bits: u32,
    ) -> Result<SimBoard, HostError> {
        Self::with_test_switch(core, baud, clocks_per_bit, timeout_bits, false)
    }

    /// As [`SimBoard::new`]; `disable_replay` builds a deliberately broken
    /// board that executes retried frames again (for the fault test's teeth).
    pub fn with_test_switch(
        core: hdl::CoreConfig,
        baud: u32,
        clocks_per_bit: u32,
        timeout_bits: u32,
        disable_replay: bool,
    ) -> Result<SimBoard, HostError> {
        Self::build(
            core,
            baud,
            clocks_per_bit,
            timeout_bits,
            disable_replay,
            sim::NetlistKind::Rtl,
        )
    }

    /// As [`SimBoard::new`], with the board top (bridge and core together) as
    /// `kind`: its RTL, or its netlist after synthesis (or place and route)
    /// by the flow's own steps, simulated with the family's cell models
    /// (`sim::netlist`; tool runs and models are cached by content).
    pub fn with_netlist(
        core: hdl::CoreConfig,
        baud: u32,
        clocks_per_bit: u32,
        timeout_bits: u32,
        kind: sim::NetlistKind,
    ) -> Result<SimBoard, HostError> {
        Self::build(core, baud, clocks_per_bit, timeout_bits, false, kind)
    }

    fn build(
        core: hdl::CoreConfig,
        baud: u32,
        clocks_per_bit: u32,
        timeout_bits: u32,
        disable_replay: bool,
        kind: sim::NetlistKind,
    ) -> Result<SimBoard, HostError> {
        let mut cfg = BoardTopConfig::new(core, baud as u64 * clocks_per_bit as u64, baud);
        cfg.timeout_bits = timeout_bits;
        cfg.test_disable_replay = disable_replay;
        let (k, bank_size) = (cfg.core.k(), cfg.core.bank_size());
        let mut top = generate_board_top(&cfg).map_err(|e| HostError::Setup(e.to_string()))?;
        // A board with the scrub has its banks open to soft errors (the RTL only): what
        // its scrub is for. Only their visibility to the simulator changes.
        let open_banks = cfg.core.scrub && kind == sim::NetlistKind::Rtl;
        if open_banks {
            top.verilog = sim::core::open_banks(&top.verilog)
                .map_err(|e| HostError::Setup(format!("the board top's banks: {e}")))?;
        }
        if top.clocks_per_bit != clocks_per_bit {
            return Err(HostError::Setup(format!(
                "board top came out at {} clocks per bit",
                top.clocks_per_bit
            )));
        }
        let netlist = sim::netlist::make(
            &top.verilog,
            &top.top,
            kind,
            &flow::tools::Progress::new("  "),
        )
        .map_err(|e| HostError::Setup(format!("the board top's {kind} netlist: {e}")))?;
        let lib = sim::build(
            &netlist.verilog,
            &netlist.top,
            &netlist.build_options(false),
        )
        .map_err(|e| {
            HostError::Setup(format!(
                "Verilator build of the board top ({kind}) failed: {e}"
            ))
        })?;
        let mut model = lib
            .instantiate(Some("clock"), InitialState::Zero)
            .map_err(|e| HostError::Setup(e.to_string()))?;
        let p = |n: &str| model.port(n).map_err(|e| HostError::Setup(e.to_string()));
        let (uart_rx, uart_tx, reset) = (p("uart_rx")?, p("uart_tx")?, p("reset")?);
        model
            .set(reset, 0)
            .map_err(|e| HostError::Setup(e.to_string()))?;
        model
            .set(uart_rx, 1)
            .map_err(|e| HostError::Setup(e.to_string()))?;
        model
            .step(32)
            .map_err(|e| HostError::Setup(e.to_string()))?;
        Ok(SimBoard {
            model,
            uart_rx,
            uart_tx,
            cpb: clocks_per_bit,
            baud,
            outgoing: VecDeque::new(),
            sample: None,
            prev_level: true,
            faults: LineFaults::default(),
            rng: Rng::new(0),
            fault_counts: FaultCounts::default(),
            cycles: 0,
            in_buf: vec![],
            out_buf: vec![],
            k,
            bank_size,
            open_banks,
        })
    }

    /// A soft error (docs/contract.md §5.2) between two cycles: flips the bit at
    /// `addr` of bank `bank` (a counting core: the low bit of its counter) with no
    /// operation, after the power-up recount, so the fill counter does not see it
    /// and a scrub reports the bank. Only a board built with the scrub, simulated
    /// as RTL, between frames.
    pub fn soft_error(&mut self, bank: usize, addr: usize) -> Result<(), HostError> {
        self.check_soft_error(bank, addr)?;
        // After the power-up recount (2^b + 8 cycles after the built-in reset), so that
        // the fill counter never sees it.
        let settled = self.bank_size as u64 + 64;
        if self.cycles < settled {
            let bits = (settled - self.cycles).div_ceil(self.cpb as u64);
            if !self.run_bits(bits)?.is_empty() {
                return Err(HostError::Setup(
                    "the board sent bytes while the line was idle".into(),
                ));
            }
        }
        self.flip(bank, addr)
    }

    /// As [`SimBoard::soft_error`], but at once: on a board just built (its
    /// power-on reset is over, its recount has read the first few addresses), a
    /// bit at a later address changes between configuration and the recount, so
    /// the recount counts it into the fill and a plain board's power-up check
    /// (contract §5.3) reports the bank.
    pub fn soft_error_now(&mut self, bank: usize, addr: usize) -> Result<(), HostError> {
        self.check_soft_error(bank, addr)?;
        self.flip(bank, addr)
    }

    fn check_soft_error(&self, bank: usize, addr: usize) -> Result<(), HostError> {
        if !self.open_banks {
            return Err(HostError::Setup(
                "a soft error needs a simulated board with the scrub (--scrub), as RTL (--netlist rtl)"
                    .into(),
            ));
        }
        if bank >= self.k || addr >= self.bank_size {
            return Err(HostError::Setup(format!(
                "soft error at bank {bank} address {addr}: the board has {} banks of {} addresses",
                self.k, self.bank_size
            )));
        }
        if self.line_busy() {
            return Err(HostError::Setup(
                "a soft error is injected between frames, with the line idle".into(),
            ));
        }
        Ok(())
    }

    fn flip(&mut self, bank: usize, addr: usize) -> Result<(), HostError> {
        // rust-hdl names bank p's instance `parts$p`; the core sits in the board top's box.
        self.model
            .mem_xor(&format!(".parts${bank}.ram"), "mem", addr as u32, 1)
            .map_err(|e| HostError::Setup(format!("soft error: {e}")))
    }

    pub fn set_faults(&mut self, faults: LineFaults) {
        self.rng = Rng::new(faults.seed);
        self.faults = faults;
    }

    /// Simulated clock cycles so far (after the power-on steps).
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    pub fn clocks_per_bit(&self) -> u32 {
        self.cpb
    }

    fn push_byte(&mut self, b: u8) {
        self.outgoing.push_back(false);
        for i in 0..8 {
            self.outgoing.push_back((b >> i) & 1 == 1);
        }
        self.outgoing.push_back(true);
    }

    /// Nominal baud rate (the simulated clock is this times the clocks per bit).
    pub fn nominal_baud(&self) -> u32 {
        self.baud
    }

    /// Something is on the line: host->board bits still to drive, or a
    /// board->host byte being received.
    pub fn line_busy(&self) -> bool {
        !self.outgoing.is_empty() || self.sample.is_some()
    }

    /// Runs `bits` bit times; returns the bytes the board sent meanwhile.
    pub fn run_bits(&mut self, bits: u64) -> Result<Vec<u8>, HostError> {
        let cpb = self.cpb as usize;
        let n = bits as usize * cpb;
        self.in_buf.clear();
        for _ in 0..bits {
            let level = self.outgoing.pop_front().unwrap_or(true) as u32;
            self.in_buf.extend(std::iter::repeat_n(level, cpb));
        }
        self.out_buf.resize(n, 0);
        self.model
            .run_vectors(
                &[self.uart_rx],
                &self.in_buf,
                &[self.uart_tx],
                &mut self.out_buf,
            )
            .map_err(|e| HostError::Transport(format!("simulation failed: {e}")))?;
        self.cycles += n as u64;
        let mut got = vec![];
        let centre = self.cpb / 2;
        for i in 0..n {
            let level = self.out_buf[i] != 0;
            match self.sample {
                None => {
                    if self.prev_level && !level {
                        self.sample = Some((0, 0));
                    }
                }
                Some((t, sh)) => {
                    let t = t + 1;
                    if t >= centre && (t - centre).is_multiple_of(self.cpb) {
                        let bit = (t - centre) / self.cpb;
                        if bit == 0 && level {
                            self.sample = None; // glitch, not a start bit
                        } else if bit == 9 {
                            if level {
                                let byte = (sh >> 1) as u8;
                                if self.rng.chance(self.faults.drop_back) {
                                    self.fault_counts.dropped_back += 1;
                                } else if self.rng.chance(self.faults.flip_back) {
                                    self.fault_counts.flipped_back += 1;
                                    got.push(byte ^ (1 << (self.rng.next_u64() % 8)));
                                } else {
                                    got.push(byte);
                                }
                            }
                            self.sample = None;
                        } else {
                            self.sample = Some((t, sh | ((level as u16) << bit)));
                        }
                    } else {
                        self.sample = Some((t, sh));
                    }
                }
            }
            self.prev_level = level;
        }
        Ok(got)
    }
}

impl Transport for SimBoard {
    fn write(&mut self, bytes: &[u8]) -> Result<(), HostError> {
        if self.rng.chance(self.faults.garbage) {
            self.fault_counts.garbage_bursts += 1;
            let n = 1 + self.rng.next_u64() % 8;
            for _ in 0..n {
                let g = self.rng.next_u64() as u8;
                self.push_byte(g);
            }
        }
        let cut = if self.rng.chance(self.faults.truncate) {
            self.fault_counts.truncated += 1;
            (self.rng.next_u64() % bytes.len().max(1) as u64) as usize
        } else {
            bytes.len()
        };
        for &b in &bytes[..cut] {
            if self.rng.chance(self.faults.drop) {
                self.fault_counts.dropped += 1;
                continue;
            }
            let b = if self.rng.chance(self.faults.flip) {
                self.fault_counts.flipped += 1;
                b ^ (1 << (self.rng.next_u64() % 8))
            } else {
                b
            };
            self.push_byte(b);
        }
        Ok(())
    }

    fn read(&mut self, max_bits: u64) -> Result<(Vec<u8>, u64), HostError> {
        let mut got = vec![];
        let mut elapsed = 0;
        let mut quiet = 0;
        while elapsed < max_bits {
            let step = 10.min(max_bits - elapsed);
            let bytes = self.run_bits(step)?;
            elapsed += step;
            if bytes.is_empty() && self.sample.is_none() {
                quiet += step;
            } else {
                quiet = 0;
            }
            got.extend(bytes);
            if !got.is_empty() && quiet >= 20 && self.outgoing.is_empty() {
                break;
            }
        }
        Ok((got, elapsed))
    }

    fn baud(&self) -> u32 {
        self.baud
    }

    fn describe(&self) -> String {
        format!(
            "simulated board (Verilator, {} clocks per bit, nominal {} baud)",
            self.cpb, self.baud
        )
    }

    fn simulated_seconds(&self) -> Option<f64> {
        Some(self.cycles as f64 / (self.baud as f64 * self.cpb as f64))
    }
}
