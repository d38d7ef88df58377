//! UART host bridge: lets a computer drive the filter core over a serial line
//! with the framed protocol of docs/protocol.md.
//!
//! Blocks, one per file: `uart_rx`, `uart_tx`, `crc16`, `frame_rx` (frame
//! receiver and CRC check), `executor` (a folder: the frame executor, composed
//! of blocks of its own), `resp_tx` (response framer),
//! `host_bridge` (the chain), `core_box` (bloom_core as a Verilog black box) and
//! `board_top` (what `bloom build --board` synthesises).
//!
//! The protocol logic counts bytes, never time, except for the truncation
//! timeout, which is given in bit times; so its behaviour does not depend on
//! the baud rate, and tests run it at a few clocks per bit for speed.

pub mod board_top;
pub mod core_box;
pub mod crc16;
pub mod executor;
pub mod frame_rx;
pub mod host_bridge;
pub mod resp_tx;
pub mod uart_rx;
pub mod uart_tx;

pub use executor::ExecutorParams;

use rust_hdl::prelude::*;

/// Default line rate.
pub const DEFAULT_BAUD: u32 = 115_200;
/// Line rates the bridge is built for, and a host may ask for: from the
/// slowest rate in common use up to the fastest USB UART on the boards
/// (the FT2232H's 12 Mbaud; the ULX3S's FT231X stops at 3 Mbaud).
pub const MIN_BAUD: u32 = 300;
pub const MAX_BAUD: u32 = 12_000_000;
/// Default truncation timeout: a gap of this many bit times inside a frame
/// ends it (about 17 ms at 115200 baud).
pub const DEFAULT_TIMEOUT_BITS: u32 = 2000;
/// Largest request payload (keys of a batch), bytes.
pub const MAX_PAYLOAD_BYTES: u32 = 248;
/// Most keys per batch frame (the hit bitmap is 32 bits).
pub const MAX_BATCH_KEYS: u32 = 32;
/// Fewest clocks per bit the receiver samples with.
pub const MIN_CLOCKS_PER_BIT: u32 = 4;
/// Largest relative baud error accepted (the receiver samples mid-bit, so
/// about 4% total mismatch with the host is tolerable; 2% leaves margin).
pub const MAX_BAUD_ERROR: f64 = 0.02;

#[derive(Debug, Clone, PartialEq)]
pub enum BridgeError {
    BadClock(u64),
    BadBaud(u32),
    BaudNotReachable {
        clock_hz: u64,
        baud: u32,
        clocks_per_bit: u64,
        error: f64,
    },
    BadTimeout(u32),
    BadCore(String),
}

impl std::fmt::Display for BridgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BridgeError::BadClock(c) => write!(f, "clock frequency {c} Hz is not allowed (must be 1 kHz ..= 1 GHz)"),
            BridgeError::BadBaud(b) => write!(f, "baud rate {b} is not allowed (must be {MIN_BAUD} ..= {MAX_BAUD})"),
            BridgeError::BaudNotReachable { clock_hz, baud, clocks_per_bit, error } => write!(
                f,
                "baud rate {baud} cannot be made from a {clock_hz} Hz clock: the nearest divider {clocks_per_bit} \
                 gives {:.2}% error (allowed: at least 4 clocks per bit, at most 65535, error at most {:.0}%)",
                error * 100.0,
                MAX_BAUD_ERROR * 100.0
            ),
            BridgeError::BadTimeout(t) => write!(f, "frame timeout of {t} bit times is not allowed (must be 20 ..= 1000000)"),
            BridgeError::BadCore(m) => write!(f, "core configuration not usable by the bridge: {m}"),
        }
    }
}

impl std::error::Error for BridgeError {}

/// Everything the bridge needs to know.
#[derive(Debug, Clone, PartialEq)]
pub struct BridgeParams {
    pub clock_hz: u64,
    pub baud: u32,
    pub timeout_bits: u32,
    /// The core behind the bridge (reported to the host, docs/protocol.md §5).
    pub core: crate::CoreParams,
    /// The core has the scrub (`CoreConfig::scrub`), and its period
    /// (`CoreConfig::scrub_every`): reported to the host, and the scrub frame.
    pub scrub: bool,
    pub scrub_every: Option<u32>,
    /// Test only (see [`ExecutorParams::disable_replay`]).
    pub disable_replay: bool,
}

/// Checked timing derived from [`BridgeParams`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BridgeTiming {
    pub clocks_per_bit: u32,
    pub timeout_clocks: u32,
    /// The baud rate actually produced (clock_hz / clocks_per_bit).
    pub actual_baud: f64,
}

/// Most keys in one batch frame for a key width.
pub fn max_batch_keys(key_bits: u32) -> u32 {
    (MAX_PAYLOAD_BYTES / (key_bits / 8)).min(MAX_BATCH_KEYS)
}

impl BridgeParams {
    pub fn validate(&self) -> Result<BridgeTiming, BridgeError> {
        if !(1_000..=1_000_000_000).contains(&self.clock_hz) {
            return Err(BridgeError::BadClock(self.clock_hz));
        }
        if !(MIN_BAUD..=MAX_BAUD).contains(&self.baud) {
            return Err(BridgeError::BadBaud(self.baud));
        }
        if !(20..=1_000_000).contains(&self.timeout_bits) {
            return Err(BridgeError::BadTimeout(self.timeout_bits));
        }
        self.core
            .validate()
            .map_err(|e| BridgeError::BadCore(e.to_string()))?;
        if self.scrub_every.is_some() {
            crate::CoreConfig {
                scrub: self.scrub,
                scrub_every: self.scrub_every,
                ..self.core.into()
            }
            .validate()
            .map_err(|e| BridgeError::BadCore(e.to_string()))?;
        }
        let cpb = ((self.clock_hz + self.baud as u64 / 2) / self.baud as u64).max(1);
        let actual = self.clock_hz as f64 / cpb as f64;
        let error = (actual - self.baud as f64).abs() / self.baud as f64;
        if !(MIN_CLOCKS_PER_BIT as u64..=65535).contains(&cpb) || error > MAX_BAUD_ERROR {
            return Err(BridgeError::BaudNotReachable {
                clock_hz: self.clock_hz,
                baud: self.baud,
                clocks_per_bit: cpb,
                error,
            });
        }
        let timeout = cpb * self.timeout_bits as u64;
        if timeout > u32::MAX as u64 {
            return Err(BridgeError::BadTimeout(self.timeout_bits));
        }
        Ok(BridgeTiming {
            clocks_per_bit: cpb as u32,
            timeout_clocks: timeout as u32,
            actual_baud: actual,
        })
    }

    pub fn executor_params(&self) -> ExecutorParams {
        ExecutorParams {
            core: self.core,
            max_batch: max_batch_keys(self.core.key_bits),
            scrub: self.scrub,
            scrub_every: self.scrub_every,
            disable_replay: self.disable_replay,
        }
    }
}

/// Generated board-top Verilog (board top, bridge and core in one text).
#[derive(Debug, Clone)]
pub struct GeneratedTop {
    pub verilog: String,
    /// Name of the top module: "bloom_board".
    pub top: String,
    pub clocks_per_bit: u32,
    pub actual_baud: f64,
    pub timeout_clocks: u32,
    /// Most keys accepted in one batch frame.
    pub max_batch: u32,
}

pub const BOARD_TOP_NAME: &str = "bloom_board";

/// Builds the board top around already generated core Verilog (whose top
/// module is `core_top` and has the ports of `ports::core_ports`).
pub fn generate_board_top_with_core(
    params: &BridgeParams,
    core_verilog: &str,
    core_top: &str,
) -> Result<GeneratedTop, BridgeError> {
    let timing = params.validate()?;
    let exec = params.executor_params();
    let mut uut = board_top::BoardTop::new(
        params.clock_hz,
        timing.clocks_per_bit,
        timing.timeout_clocks,
        &exec,
        core_verilog.to_string(),
        core_top.to_string(),
    );
    uut.clock.connect();
    uut.reset.connect();
    uut.uart_rx.connect();
    uut.connect_all();
    check_all(&uut)
        .map_err(|e| BridgeError::BadCore(format!("board top failed Rust-HDL checks: {e:?}")))?;
    let mut defines = ModuleDefines::default();
    uut.accept(BOARD_TOP_NAME, &mut defines);
    Ok(GeneratedTop {
        verilog: defines.defines(),
        top: BOARD_TOP_NAME.to_string(),
        clocks_per_bit: timing.clocks_per_bit,
        actual_baud: timing.actual_baud,
        timeout_clocks: timing.timeout_clocks,
        max_batch: exec.max_batch,
    })
}

/// What `bloom build --board` (and `bloom host --sim`) asks for.
#[derive(Debug, Clone)]
pub struct BoardTopConfig {
    pub core: crate::CoreConfig,
    pub clock_hz: u64,
    pub baud: u32,
    /// Truncation timeout in bit times ([`DEFAULT_TIMEOUT_BITS`] unless a test
    /// wants it shorter).
    pub timeout_bits: u32,
    /// Test only: break exactly-once (retries are executed again).
    pub test_disable_replay: bool,
}

impl BoardTopConfig {
    pub fn new(core: crate::CoreConfig, clock_hz: u64, baud: u32) -> Self {
        Self {
            core,
            clock_hz,
            baud,
            timeout_bits: DEFAULT_TIMEOUT_BITS,
            test_disable_replay: false,
        }
    }

    pub fn bridge_params(&self) -> BridgeParams {
        BridgeParams {
            clock_hz: self.clock_hz,
            baud: self.baud,
            timeout_bits: self.timeout_bits,
            core: self.core.params,
            scrub: self.core.scrub,
            scrub_every: self.core.scrub_every,
            disable_replay: self.test_disable_replay,
        }
    }
}

/// Generates the board top `bloom_board` (ports: clock, reset, uart_rx,
/// uart_tx, leds[3:0]; see board_top.rs) with the bridge and the core of
/// `cfg.core`, as one self-contained Verilog text.
pub fn generate_board_top(cfg: &BoardTopConfig) -> Result<GeneratedTop, BridgeError> {
    let params = cfg.bridge_params();
    params.validate()?;
    let core = crate::generate_core(&cfg.core).map_err(|e| BridgeError::BadCore(e.to_string()))?;
    generate_board_top_with_core(&params, &core.verilog, &core.top)
}
