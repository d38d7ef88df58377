//! Board tops. A board top (`bloom_board_top`) owns the pins, the clock (PLL
//! or oscillator), the reset and the LED polarity, and instantiates one
//! `bloom_board_logic` module that does the work. The logic is exchangeable
//! through [`crate::build::BuildOptions::logic`]: [`crate::bridge::UartBridge`]
//! (what `bloom build` uses by default) puts the UART host bridge of
//! docs/protocol.md in front of the core; [`TestPattern`] drives the core from
//! an LFSR and shows the result on the LEDs.
//!
//! `bloom_board_logic` interface (every implementation):
//! ```text
//! module bloom_board_logic #(parameter CLOCK_HZ = ..., parameter LEDS = ...) (
//!     input clock,                 // core clock, CLOCK_HZ
//!     input reset,                 // synchronous, active high; held after configuration,
//!                                  // until the PLL locks, and while the reset button is pressed
//!     input uart_rx,               // FTDI UART, FPGA input (unsynchronised)
//!     output uart_tx,              // FTDI UART, FPGA output (idle high)
//!     output [LEDS-1:0] led        // 1 = lit; the top applies each LED's polarity
//! );
//! ```

use crate::board::{Board, Family};
use crate::pll::{self, Ecp5Pll, Ice40Pll};
use crate::{FlowError, GeneratedCore};
use serde::Serialize;

/// How the core clock is made from the board's oscillator.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "source")]
pub enum ClockPlan {
    Oscillator { mhz: f64 },
    Ice40Pll { pll: Ice40Pll, from_pad: bool },
    Ecp5Pll { pll: Ecp5Pll },
}

impl ClockPlan {
    pub fn mhz(&self) -> f64 {
        match self {
            ClockPlan::Oscillator { mhz } => *mhz,
            ClockPlan::Ice40Pll { pll, .. } => pll.fout_mhz,
            ClockPlan::Ecp5Pll { pll } => pll.fout_mhz,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            ClockPlan::Oscillator { mhz } => format!("{mhz} MHz oscillator, no PLL"),
            ClockPlan::Ice40Pll { pll, .. } => format!(
                "SB_PLL40 {:.3} MHz (DIVR {} DIVF {} DIVQ {})",
                pll.fout_mhz, pll.divr, pll.divf, pll.divq
            ),
            ClockPlan::Ecp5Pll { pll } => format!(
                "EHXPLLL {:.3} MHz (CLKI_DIV {} CLKFB_DIV {} CLKOP_DIV {})",
                pll.fout_mhz, pll.clki_div, pll.clkfb_div, pll.clkop_div
            ),
        }
    }

    /// The fastest clock this board can make that is not above `max_mhz`:
    /// the oscillator itself or a PLL setting, whichever is higher.
    pub fn fastest_up_to(board: &Board, max_mhz: f64) -> Result<ClockPlan, FlowError> {
        if !max_mhz.is_finite() || max_mhz <= 0.0 {
            return Err(FlowError::Invalid(format!(
                "clock frequency {max_mhz} MHz: must be a positive number"
            )));
        }
        let osc = (board.clock_mhz <= max_mhz + 1e-9).then_some(ClockPlan::Oscillator {
            mhz: board.clock_mhz,
        });
        let via_pll = match board.device.family {
            Family::Ice40 => pll::ice40(board.clock_mhz, max_mhz).map(|pll| ClockPlan::Ice40Pll {
                pll,
                from_pad: board.clock_on_pll_pad,
            }),
            Family::Ecp5 => {
                pll::ecp5(board.clock_mhz, max_mhz).map(|pll| ClockPlan::Ecp5Pll { pll })
            }
        };
        match (osc, via_pll) {
            (Some(o), Some(p)) => Ok(if p.mhz() > o.mhz() + 1e-9 { p } else { o }),
            (Some(o), None) => Ok(o),
            (None, Some(p)) => Ok(p),
            (None, None) => Err(FlowError::Invalid(format!(
                "{} cannot make a clock of {max_mhz} MHz or below: its oscillator runs at {} MHz and the \
                 {} PLL cannot go lower than {} MHz",
                board.title,
                board.clock_mhz,
                board.device.family,
                match board.device.family {
                    Family::Ice40 => pll::ICE40_PLL_MIN_OUT_MHZ,
                    Family::Ecp5 => pll::ECP5_PLL_MIN_OUT_MHZ,
                }
            ))),
        }
    }

    fn verilog(&self) -> String {
        match self {
            ClockPlan::Oscillator { .. } => {
                "    assign core_clock = clock;\n    assign pll_locked = 1'b1;\n".to_string()
            }
            ClockPlan::Ice40Pll { pll, from_pad } => pll.verilog(*from_pad),
            ClockPlan::Ecp5Pll { pll } => pll.verilog(),
        }
    }
}

/// The serial line a board logic offers a host, at one core clock.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UartLink {
    /// The rate asked for (`bloom build --baud`); `bloom host --baud` must match it.
    pub baud: u32,
    /// The rate the divider makes from the core clock: clock / clocks_per_bit.
    pub actual_baud: f64,
    pub clocks_per_bit: u32,
    /// |actual - baud| / baud, in percent.
    pub error_pct: f64,
}

/// Whether a board logic can run at a given core clock.
#[derive(Clone, Debug, PartialEq)]
pub enum ClockFit {
    /// It can; with the host link it then offers (None: it has none).
    Fits(Option<UartLink>),
    /// Not at this clock, but perhaps at a slower one: `reason` says why, and
    /// no clock above `retry_at_or_below_mhz` and below this one can work either.
    Unusable {
        reason: String,
        retry_at_or_below_mhz: f64,
    },
}

/// What runs inside the board top (see the module documentation for its interface).
pub trait BoardLogic {
    /// Short name for reports ("test pattern", "UART host bridge").
    fn name(&self) -> &str;
    /// The name `bloom build --top` takes for it ("test-pattern", "uart-bridge").
    fn kind(&self) -> &str;
    /// Whether the logic can run at `clock_hz`. Err: it cannot run at any
    /// clock (its own settings are wrong).
    fn fit(&self, core: &GeneratedCore, clock_hz: u64) -> Result<ClockFit, FlowError>;
    /// Verilog defining `bloom_board_logic` for `clock_hz` and everything it
    /// instantiates other than the core (whose Verilog the flow adds).
    fn verilog(
        &self,
        core: &GeneratedCore,
        board: &Board,
        clock_hz: u64,
    ) -> Result<String, FlowError>;
    /// Replicas of the core's banks the logic holds (`bloom_lanes`, hdl/src/lanes/mod.rs): 1 but for
    /// a test pattern over lanes. The flow checks the part's block RAM holds them.
    fn lanes(&self) -> usize {
        1
    }
}

/// The core clock in Hz that a board top made with `plan` runs its logic at.
pub fn clock_hz(plan: &ClockPlan) -> u64 {
    (plan.mhz() * 1e6).round() as u64
}

/// How long the board top holds reset after the PLL locks: iCE40 block RAM
/// reads 0 for about 3 µs after configuration (icestorm issue #76: 36 cycles
/// at 12 MHz, more at faster clocks), and the core reads every bank right
/// after reset to recount its fill counters. Ten microseconds leave a margin
/// of three; never fewer than 256 cycles.
pub const POWER_ON_RESET_MICROSECONDS: u64 = 10;

/// The power-on reset's length in cycles of the core clock, and the width of
/// its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PowerOnReset {
    pub cycles: u64,
    pub width: u32,
}

impl PowerOnReset {
    pub fn at(clock_hz: u64) -> PowerOnReset {
        let cycles = (clock_hz * POWER_ON_RESET_MICROSECONDS)
            .div_ceil(1_000_000)
            .max(256);
        PowerOnReset {
            cycles,
            width: 64 - (cycles - 1).leading_zeros(),
        }
    }
}

/// Modules defined more than once in `verilog` (Yosys would refuse the design).
pub fn duplicate_modules(verilog: &str) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut dups = std::collections::BTreeSet::new();
    for line in verilog.lines() {
        let Some(rest) = line.trim_start().strip_prefix("module ") else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if !name.is_empty() && !seen.insert(name.clone()) {
            dups.insert(name);
        }
    }
    dups.into_iter().collect()
}

/// The whole board design: top, logic and core, one Verilog text.
pub fn board_design(
    board: &Board,
    clock: &ClockPlan,
    logic: &dyn BoardLogic,
    core: &GeneratedCore,
) -> Result<String, FlowError> {
    let clock_hz = clock_hz(clock);
    let por = PowerOnReset::at(clock_hz);
    let n = board.leds.len();
    let polarity: String = board
        .leds
        .iter()
        .rev()
        .map(|p| if p.active_low { '1' } else { '0' })
        .collect();
    let (button_port, pressed) = match board.reset_button {
        Some(p) => (
            "    input reset_button,\n",
            if p.active_low {
                "!reset_button"
            } else {
                "reset_button"
            }
            .to_string(),
        ),
        None => ("", "1'b0".to_string()),
    };
    let top = format!(
        "// Board top for the {title}: {part} {pkg}, {osc} MHz oscillator on pin {pin}.
// Core clock: {clk}.
// Generated by the bloom flow; `bloom_board_logic` below is the {logic}.
module bloom_board_top (
    input clock,
{button_port}    output [{nm1}:0] led,
    input uart_rx,
    output uart_tx
);
    wire core_clock;
    wire pll_locked;
{pll}
    // Reset is held until the PLL locks, while the reset button is pressed
    // (both synchronised first), and then for {por} more cycles: at least
    // {por_us} us of this clock, because iCE40 block RAM reads 0 for about 3 us
    // after configuration and the core recounts its banks right after reset.
    reg [1:0] hold_sync = 2'b11;
    reg [{pw_m1}:0] reset_count = {pw}'d0;
    reg reset = 1'b1;
    always @(posedge core_clock) begin
        hold_sync <= {{hold_sync[0], !pll_locked || {pressed}}};
        if (hold_sync[1]) begin
            reset_count <= {pw}'d0;
            reset <= 1'b1;
        end else if (reset_count != {pw}'d{por_last}) begin
            reset_count <= reset_count + {pw}'d1;
            reset <= 1'b1;
        end else begin
            reset <= 1'b0;
        end
    end

    wire [{nm1}:0] lit;
    bloom_board_logic #(.CLOCK_HZ({clock_hz}), .LEDS({n})) board_logic (
        .clock(core_clock),
        .reset(reset),
        .uart_rx(uart_rx),
        .uart_tx(uart_tx),
        .led(lit)
    );
    // Active-low LEDs are inverted here so the logic can say 1 = lit.
    assign led = lit ^ {n}'b{polarity};
endmodule
",
        title = board.title,
        part = board.device.part,
        pkg = board.package_title,
        osc = board.clock_mhz,
        pin = board.clock.site,
        clk = clock.describe(),
        logic = logic.name(),
        nm1 = n - 1,
        pll = clock.verilog(),
        por = por.cycles,
        por_last = por.cycles - 1,
        por_us = POWER_ON_RESET_MICROSECONDS,
        pw = por.width,
        pw_m1 = por.width - 1,
    );
    let design = format!(
        "{top}\n{}\n{}",
        logic.verilog(core, board, clock_hz)?,
        core.verilog
    );
    let dups = duplicate_modules(&design);
    if !dups.is_empty() {
        return Err(FlowError::Invalid(format!(
            "the board design ({} and the core) defines these modules more than once: {}",
            logic.name(),
            dups.join(", ")
        )));
    }
    Ok(design)
}

/// Test pattern: inserts a key from a 64-bit LFSR, then queries the same key
/// (which must hit: a Bloom filter has no false negatives), then moves on; a
/// clear every 2^20 pairs keeps the filter from saturating.
///
/// Over L > 1 lanes (`bloom_lanes`, hdl/src/lanes/mod.rs) every pair is a write
/// beat (the insert, or the clear, in slot 0) and a read beat of L queries:
/// slot j queries the key inserted j pairs ago, which must hit unless a clear
/// came after it. Every lane answers a checked query in every read beat, so
/// the lanes are all at work on the board: L + 1 operations every two clocks.
///
/// LEDs (1 = lit): led[0] error, latched: a query that must hit answered miss
/// (or, over lanes, a beat was refused); led[1] heartbeat (about 1 Hz); led[2]
/// toggles every 2^16 response beats; led[3] on while the core is clearing;
/// led[4..] the top bits of bank 0's fill count.
///
/// `bloom_board_logic` has one parameter beyond the interface's: CLEAR_LOG2
/// (default 20), a clear every 2^CLEAR_LOG2 pairs; a testbench sets it lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestPattern {
    /// Lanes of the core (1: `bloom_core` itself).
    pub lanes: usize,
    /// For tests only: breaks the lanes (hdl::lanes::LaneSwitches).
    pub switches: hdl::lanes::LaneSwitches,
}

impl TestPattern {
    /// The pattern over `bloom_core`.
    pub const ONE_LANE: TestPattern = TestPattern {
        lanes: 1,
        switches: hdl::lanes::LaneSwitches {
            no_write_broadcast: false,
            early_replica_read: false,
        },
    };

    /// The pattern over `lanes` lanes (1: `bloom_core` itself).
    pub fn over_lanes(lanes: usize) -> TestPattern {
        TestPattern {
            lanes,
            ..TestPattern::ONE_LANE
        }
    }
}

/// The test pattern's key from the 64-bit LFSR value at bits `lo + 63 : lo` of `reg`.
fn pattern_key(key_bits: u32, reg: &str, lo: usize) -> Result<String, FlowError> {
    let x = format!("{reg}[{}:{lo}]", lo + 63);
    match key_bits {
        32 => Ok(format!("{reg}[{}:{lo}]", lo + 31)),
        64 => Ok(x),
        128 => Ok(format!("{{{x} ^ 64'hc3a5c85c97cb3127, {x}}}")),
        w => Err(FlowError::Invalid(format!(
            "key width {w}: must be 32, 64 or 128"
        ))),
    }
}

/// `bloom_board_logic` of a test pattern: what every pattern shares, around `body`.
/// The shell declares the LFSR (`lfsr`, advanced by [`LFSR_NEXT`]), `querying` (0: the
/// insert or clear, 1: the queries), `pairs` and `clear_slot` (a clear every
/// 2^CLEAR_LOG2 pairs); `body` declares its own state, drives the core and advances
/// them. After it: the error (latched when `miss` holds in a response), the response
/// count behind `activity`, the heartbeat and the LEDs.
fn pattern_module(
    comment: &str,
    core: &GeneratedCore,
    board: &Board,
    clock_hz: u64,
    body: &str,
    miss: &str,
) -> String {
    let leds = board.leds.len();
    let heartbeat_bit = (63 - clock_hz.max(2).leading_zeros()).saturating_sub(1);
    let mut led_lines = format!(
        "    assign led[0] = error;\n    assign led[1] = ticks[{heartbeat_bit}];\n    assign led[2] = activity;\n    assign led[3] = busy;\n"
    );
    for i in 4..leds {
        let bit = core.config.params.bank_bits as i64 - (i as i64 - 4);
        if bit >= 0 {
            led_lines += &format!("    assign led[{i}] = fill_count[{bit}];\n");
        } else {
            led_lines += &format!("    assign led[{i}] = 1'b0;\n");
        }
    }
    format!(
        "{comment}
module bloom_board_logic #(parameter CLOCK_HZ = {clock_hz}, parameter LEDS = {leds}, parameter CLEAR_LOG2 = 20) (
    input clock,
    input reset,
    input uart_rx,
    output uart_tx,
    output [LEDS-1:0] led
);
    assign uart_tx = 1'b1;

    reg [63:0] lfsr = 64'h9e3779b97f4a7c15;
    reg querying = 1'b0;      // 0: insert (or clear), 1: query
    reg [CLEAR_LOG2-1:0] pairs = {{CLEAR_LOG2{{1'b0}}}};
    wire clear_slot = !querying && pairs == {{CLEAR_LOG2{{1'b0}}}};

{body}
    reg error = 1'b0;
    reg [15:0] responses = 16'd0;
    reg activity = 1'b0;
    always @(posedge clock) begin
        if (reset) begin
            error <= 1'b0;
        end else if (resp_valid) begin
            if ({miss}) error <= 1'b1;
            responses <= responses + 16'd1;
            if (responses == 16'hffff) activity <= !activity;
        end
    end

    reg [63:0] ticks = 64'd0;
    always @(posedge clock) ticks <= ticks + 64'd1;

{led_lines}endmodule
"
    )
}

/// The LFSR's next value (a Verilog expression).
const LFSR_NEXT: &str = "{lfsr[62:0], lfsr[63] ^ lfsr[62] ^ lfsr[60] ^ lfsr[59]}";

impl BoardLogic for TestPattern {
    fn name(&self) -> &str {
        if self.lanes == 1 {
            "test pattern"
        } else {
            "test pattern over lanes"
        }
    }

    fn kind(&self) -> &str {
        "test-pattern"
    }

    fn fit(&self, _core: &GeneratedCore, _clock_hz: u64) -> Result<ClockFit, FlowError> {
        Ok(ClockFit::Fits(None))
    }

    fn lanes(&self) -> usize {
        self.lanes
    }

    fn verilog(
        &self,
        core: &GeneratedCore,
        board: &Board,
        clock_hz: u64,
    ) -> Result<String, FlowError> {
        if self.lanes == 1 {
            one_lane_pattern(core, board, clock_hz)
        } else {
            lanes_pattern(core, board, clock_hz, self.lanes, self.switches)
        }
    }
}

fn one_lane_pattern(
    core: &GeneratedCore,
    board: &Board,
    clock_hz: u64,
) -> Result<String, FlowError> {
    let key = pattern_key(core.config.params.key_bits, "lfsr", 0)?;
    let ports = hdl::ports::core_ports(&core.config.params);
    // No readback, fill of bank 0, responses always taken; outputs to wires of their own name.
    let instance = hdl::ports::instance(&core.top, "core", &ports, |p| match p.name.as_str() {
        "req_key" => Some(key.clone()),
        "resp_ready" => Some("1'b1".into()),
        "rb_req" | "rb_write" | "rb_wdata" | "scrub_req" => Some("1'b0".into()),
        "rb_bank" | "fill_bank" => Some("4'd0".into()),
        "rb_addr" => Some("16'd0".into()),
        "counter_wdata" => Some("8'd0".into()),
        "clock" | "reset" | "req_valid" | "req_op" | "req_tag" => Some(p.name.clone()),
        _ if p.direction == hdl::ports::Direction::Output => Some(p.name.clone()),
        _ => None,
    })
    .map_err(|e| FlowError::Invalid(format!("test pattern: {e}")))?;
    let wires = hdl::ports::output_wires(&ports, "");
    let body = format!(
        "    reg after_clear = 1'b0;   // this query slot follows a clear: its key was never inserted
{wires}    wire req_valid = !reset;
    wire [1:0] req_op = querying ? 2'd0 : (clear_slot ? 2'd2 : 2'd1);
    wire [7:0] req_tag = {{6'd0, querying && !after_clear, querying}};

{instance}
    always @(posedge clock) begin
        if (reset) begin
            querying <= 1'b0;
            after_clear <= 1'b0;
            pairs <= {{CLEAR_LOG2{{1'b0}}}};
        end else if (req_valid && req_ready) begin
            querying <= !querying;
            if (!querying) after_clear <= clear_slot;
            if (querying) begin
                lfsr <= {LFSR_NEXT};
                pairs <= pairs + 1'b1;
            end
        end
    end
"
    );
    Ok(pattern_module(
        "// Test pattern for the board: insert key, query the same key (must hit), next key.",
        core,
        board,
        clock_hz,
        &body,
        "resp_tag[1] && !resp_hit",
    ))
}

fn lanes_pattern(
    core: &GeneratedCore,
    board: &Board,
    clock_hz: u64,
    lanes: usize,
    switches: hdl::lanes::LaneSwitches,
) -> Result<String, FlowError> {
    let generated =
        hdl::lanes::lanes_around_with(core.clone(), lanes, board.device.replica_ports(), switches)
            .map_err(|e| FlowError::Invalid(e.to_string()))?;
    let l = lanes;
    let w = core.config.params.key_bits as usize;
    // The count of inserts since the last clear, 0..=L.
    let iw = (usize::BITS - l.leading_zeros()) as usize;
    let ports = hdl::lanes::lanes_ports(&core.config.params, l);
    let instance = hdl::ports::instance(hdl::lanes::LANES_TOP, "lanes", &ports, |p| {
        match p.name.as_str() {
            "resp_ready" => Some("1'b1".into()),
            "rb_req" | "rb_write" | "rb_wdata" => Some("1'b0".into()),
            "rb_bank" | "fill_bank" => Some("4'd0".into()),
            "rb_addr" => Some("16'd0".into()),
            "counter_wdata" => Some("8'd0".into()),
            _ => Some(p.name.clone()),
        }
    })
    .map_err(|e| FlowError::Invalid(format!("test pattern: {e}")))?;
    let wires = hdl::ports::output_wires(&ports, "");
    // Slot j of a read beat queries the key inserted j pairs ago; slot 0 of a write beat inserts lfsr.
    let mut read_keys = Vec::new();
    for j in (0..l).rev() {
        read_keys.push(pattern_key(w as u32, "history", 64 * j)?);
    }
    let write_key = pattern_key(w as u32, "lfsr", 0)?;
    let tags: Vec<String> = (0..l)
        .rev()
        .map(|j| format!("{{6'd0, querying && (inserted > {iw}'d{j}), querying}}"))
        .collect();
    let must_hit: Vec<String> = (0..l)
        .rev()
        .map(|j| format!("resp_tag[{}]", 8 * j + 1))
        .collect();
    let history_shift = format!("{{history[{}:0], lfsr}}", 64 * (l - 1) - 1);
    let body = format!(
        "    // history[64j+63:64j]: the LFSR value of the key inserted j pairs ago.
    reg [{hm1}:0] history = {h}'d0;
    // Inserts since the last clear, at most {l}: slot j's key is in the filter when j < inserted.
    reg [{iwm1}:0] inserted = {iw}'d0;
{wires}    wire [{lm1}:0] req_valid = reset ? {l}'d0 : (querying ? {{{l}{{1'b1}}}} : {l}'d1);
    wire [{opm1}:0] req_op = querying ? {op}'d0 : {{{opz}'d0, (clear_slot ? 2'd2 : 2'd1)}};
    wire [{km1}:0] req_key = querying ? {{{read_keys}}} : {{{kz}'d0, {write_key}}};
    // Tag bit 1: the query must hit; bit 0: a query.
    wire [{tm1}:0] req_tag = {{{tags}}};

{instance}
    always @(posedge clock) begin
        if (reset) begin
            querying <= 1'b0;
            inserted <= {iw}'d0;
            pairs <= {{CLEAR_LOG2{{1'b0}}}};
        end else if ((|req_valid) && req_ready) begin
            querying <= !querying;
            if (!querying) begin
                if (clear_slot) begin
                    inserted <= {iw}'d0;
                end else begin
                    history <= {history_shift};
                    if (inserted != {iw}'d{l}) inserted <= inserted + {iw}'d1;
                end
            end else begin
                lfsr <= {LFSR_NEXT};
                pairs <= pairs + 1'b1;
            end
        end
    end

    wire [{lm1}:0] must_hit = {{{must_hit}}};
",
        h = 64 * l,
        hm1 = 64 * l - 1,
        iwm1 = iw - 1,
        lm1 = l - 1,
        opm1 = 2 * l - 1,
        op = 2 * l,
        opz = 2 * (l - 1),
        km1 = w * l - 1,
        kz = w * (l - 1),
        tm1 = 8 * l - 1,
        read_keys = read_keys.join(", "),
        tags = tags.join(", "),
        must_hit = must_hit.join(", "),
    );
    let comment = format!(
        "// Test pattern over {l} lanes: insert a key (slot 0 of a write beat), then query the
// last {l} keys inserted, one per slot (a read beat): each must hit unless a clear came after it."
    );
    let logic = pattern_module(
        &comment,
        core,
        board,
        clock_hz,
        &body,
        &format!("resp_refused || ((resp_slot_valid & must_hit & (~resp_hit)) != {l}'d0)"),
    );
    Ok(format!("{logic}\n{}", generated.top_module))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_on_reset_outlasts_ice40_block_ram_wake_up() {
        for hz in [
            12_000_000u64,
            25_000_000,
            41_250_000,
            103_500_000,
            130_000_000,
            400_000_000,
        ] {
            let por = PowerOnReset::at(hz);
            // At least 10 us (iCE40 block RAM reads 0 for about 3 us) and 256 cycles.
            assert!(
                por.cycles * 1_000_000 >= hz * POWER_ON_RESET_MICROSECONDS,
                "{hz} Hz: {por:?}"
            );
            assert!(por.cycles >= 256);
            // The counter reaches cycles - 1 and no further.
            assert!(
                por.cycles - 1 < 1 << por.width && por.cycles > 1 << (por.width - 1),
                "{hz} Hz: {por:?}"
            );
        }
        assert_eq!(
            PowerOnReset::at(12_000_000),
            PowerOnReset {
                cycles: 256,
                width: 8
            }
        );
        assert_eq!(
            PowerOnReset::at(103_500_000),
            PowerOnReset {
                cycles: 1035,
                width: 11
            }
        );
    }
}
