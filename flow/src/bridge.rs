//! The UART host bridge as the board's logic (what `bloom build` puts on a
//! board by default): `bloom_board_logic` wraps the bridge's board top
//! `bloom_board` (hdl::bridge, docs/protocol.md §8), which holds the UART, the
//! framed protocol and the core, so that `bloom host --port` can talk to the
//! bitstream.
//!
//! The bridge's baud divider is a constant worked out from the core clock, so
//! its Verilog is generated for one clock, the one the PLL makes, and fails
//! elaboration under any other CLOCK_HZ rather than making a bitstream whose
//! line rate is off. The build regenerates it for every clock it tries.
//!
//! LEDs (1 = lit): led[0] the last frame was rejected (the red LED on the
//! iCEBreaker, as the test pattern's error LED), led[1] heartbeat (about 1 Hz),
//! led[2] receive activity, led[3] transmit activity; any others stay off.
//! Latency, memory and same-address behaviour are those of the bridge and the
//! core; this wrapper only renames ports and adds no logic.

use crate::board::Board;
use crate::top::{BoardLogic, ClockFit, UartLink};
use crate::{FlowError, GeneratedCore};
use hdl::bridge::{BoardTopConfig, BridgeError, MAX_BAUD_ERROR};

/// The most clocks per bit the bridge's divider takes (hdl::bridge's
/// `BridgeParams::validate`). Used only to tell the clock search where to look
/// next; the bridge's own check decides.
const MAX_CLOCKS_PER_BIT: f64 = 65535.0;

/// The UART host bridge in front of the core of `core`, at `baud`.
#[derive(Clone, Debug)]
pub struct UartBridge {
    core: hdl::CoreParams,
    baud: u32,
    /// The core's scrub (`CoreConfig::scrub`, `scrub_every`): the bridge's scrub frame
    /// and what it reports to the host.
    scrub: bool,
    scrub_every: Option<u32>,
}

impl UartBridge {
    /// `core` must be the configuration the build's [`GeneratedCore`] was made
    /// from (the bridge reports it to the host; the build checks they agree).
    pub fn new(core: hdl::CoreParams, baud: u32) -> Self {
        UartBridge {
            core,
            baud,
            scrub: false,
            scrub_every: None,
        }
    }

    /// The bridge in front of a core generated with the scrub (`scrub`) and its period
    /// (`scrub_every`), as the core's [`hdl::CoreConfig`] says (the build checks they agree).
    pub fn with_scrub(mut self, scrub: bool, scrub_every: Option<u32>) -> Self {
        self.scrub = scrub;
        self.scrub_every = scrub_every;
        self
    }

    pub fn baud(&self) -> u32 {
        self.baud
    }

    fn config(&self, clock_hz: u64) -> BoardTopConfig {
        BoardTopConfig::new(
            hdl::CoreConfig {
                scrub: self.scrub,
                scrub_every: self.scrub_every,
                ..hdl::CoreConfig::from(self.core)
            },
            clock_hz,
            self.baud,
        )
    }

    /// The bridge tells the host its configuration: it must be the core's.
    fn check_core(&self, core: &GeneratedCore) -> Result<(), FlowError> {
        let scrub = (core.config.scrub, core.config.scrub_every);
        if scrub != (self.scrub, self.scrub_every) {
            return Err(FlowError::Invalid(format!(
                "the UART bridge was set up for a core with scrub {:?} (every {:?} cycles), the core has {:?} (every {:?})",
                self.scrub, self.scrub_every, scrub.0, scrub.1
            )));
        }
        if core.config.params == self.core {
            Ok(())
        } else {
            Err(FlowError::Invalid(format!(
                "the UART bridge was set up for {}, the core is {} ({})",
                self.core,
                core.config.params,
                self.core.differences(&core.config.params)
            )))
        }
    }

    fn bridge_error(&self, e: BridgeError) -> FlowError {
        FlowError::Invalid(format!("UART bridge (--baud {}): {e}", self.baud))
    }
}

impl BoardLogic for UartBridge {
    fn name(&self) -> &str {
        "UART host bridge (docs/protocol.md)"
    }

    fn kind(&self) -> &str {
        "uart-bridge"
    }

    fn fit(&self, core: &GeneratedCore, clock_hz: u64) -> Result<ClockFit, FlowError> {
        self.check_core(core)?;
        match self.config(clock_hz).bridge_params().validate() {
            Ok(t) => Ok(ClockFit::Fits(Some(UartLink {
                baud: self.baud,
                actual_baud: t.actual_baud,
                clocks_per_bit: t.clocks_per_bit,
                error_pct: 100.0 * (t.actual_baud - self.baud as f64).abs() / self.baud as f64,
            }))),
            Err(e @ BridgeError::BaudNotReachable { .. }) => {
                let BridgeError::BaudNotReachable {
                    clocks_per_bit,
                    error,
                    ..
                } = e
                else {
                    unreachable!()
                };
                let baud = self.baud as f64;
                let retry_hz = if error > MAX_BAUD_ERROR {
                    // Between two dividers' bands of +-2%: the highest band below
                    // this clock ends at n * baud * 1.02.
                    (clock_hz as f64 / (baud * (1.0 + MAX_BAUD_ERROR))).floor()
                        * baud
                        * (1.0 + MAX_BAUD_ERROR)
                } else if (clocks_per_bit as f64) < MAX_CLOCKS_PER_BIT {
                    // Too few clocks per bit: a slower clock has fewer still.
                    0.0
                } else {
                    MAX_CLOCKS_PER_BIT * baud
                };
                Ok(ClockFit::Unusable {
                    reason: format!(
                        "the UART bridge cannot make --baud {} from the {:.4} MHz core clock: {e}",
                        self.baud,
                        clock_hz as f64 / 1e6
                    ),
                    retry_at_or_below_mhz: retry_hz / 1e6,
                })
            }
            Err(e) => Err(self.bridge_error(e)),
        }
    }

    fn verilog(
        &self,
        core: &GeneratedCore,
        board: &Board,
        clock_hz: u64,
    ) -> Result<String, FlowError> {
        self.check_core(core)?;
        let params = self.config(clock_hz).bridge_params();
        // The flow appends the core's Verilog once; the bridge only instantiates it.
        let g = hdl::bridge::generate_board_top_with_core(&params, "", &core.top)
            .map_err(|e| self.bridge_error(e))?;
        let leds = board.leds.len();
        let led_assigns: String = (0..leds)
            .map(|i| {
                let source = match i {
                    0 => "status[3]",
                    1 => "status[0]",
                    2 => "status[1]",
                    3 => "status[2]",
                    _ => "1'b0",
                };
                format!("    assign led[{i}] = {source};\n")
            })
            .collect();
        Ok(format!(
            "// The UART host bridge (docs/protocol.md) in front of the core, for a {clock_hz} Hz clock:
// {baud} baud asked for, {actual:.1} made ({cpb} clocks per bit).
// LEDs: [0] last frame rejected, [1] heartbeat, [2] receive, [3] transmit activity.
module bloom_board_logic #(parameter CLOCK_HZ = {clock_hz}, parameter LEDS = {leds}) (
    input clock,
    input reset,
    input uart_rx,
    output uart_tx,
    output [LEDS-1:0] led
);
    // The baud divider below was worked out for {clock_hz} Hz: under another
    // clock the design must not elaborate (the module named here does not exist).
    generate if (CLOCK_HZ != {clock_hz}) begin : clock_mismatch
        bloom_board_logic_generated_for_another_clock_hz clock_mismatch ();
    end endgenerate

    wire [3:0] status;
    {top} bridge_top (
        .clock(clock),
        .reset(reset),
        .uart_rx(uart_rx),
        .uart_tx(uart_tx),
        .leds(status)
    );
{led_assigns}endmodule

{bridge}",
            baud = self.baud,
            actual = g.actual_baud,
            cpb = g.clocks_per_bit,
            top = g.top,
            bridge = g.verilog,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::top::{board_design, duplicate_modules, ClockPlan};

    fn small() -> (hdl::CoreParams, GeneratedCore) {
        let cfg = hdl::CoreParams {
            k: 2,
            bank_bits: 9,
            key_bits: 32,
            ..Default::default()
        };
        let core = crate::generate_core(&cfg.into()).unwrap();
        (cfg, core)
    }

    #[test]
    fn fit_115200_at_12mhz_is_104_clocks_per_bit() {
        let (cfg, core) = small();
        let b = UartBridge::new(cfg, 115_200);
        let ClockFit::Fits(Some(link)) = b.fit(&core, 12_000_000).unwrap() else {
            panic!("12 MHz makes 115200")
        };
        assert_eq!(link.clocks_per_bit, 104);
        assert!((link.actual_baud - 12e6 / 104.0).abs() < 1e-6);
        assert!(
            link.error_pct > 0.15 && link.error_pct < 0.17,
            "{}",
            link.error_pct
        );
    }

    #[test]
    fn fit_3mbaud_unusable_at_19_875mhz_retry_below_18_36() {
        let (cfg, core) = small();
        let b = UartBridge::new(cfg, 3_000_000);
        // 19.875 MHz / 3 Mbaud = 6.625 -> 7 clocks per bit, 5.4% slow.
        match b.fit(&core, 19_875_000).unwrap() {
            ClockFit::Unusable {
                reason,
                retry_at_or_below_mhz,
            } => {
                assert!(
                    reason.contains("3000000") && reason.contains("19.8750 MHz"),
                    "{reason}"
                );
                // The band of 6 clocks per bit ends at 6 x 3.06 MHz.
                assert!(
                    (retry_at_or_below_mhz - 18.36).abs() < 1e-9,
                    "{retry_at_or_below_mhz}"
                );
            }
            other => panic!("{other:?}"),
        }
        // 12 MHz / 4 Mbaud = 3 clocks per bit: no slower clock helps.
        let b = UartBridge::new(small().0, 4_000_000);
        match b.fit(&core, 12_000_000).unwrap() {
            ClockFit::Unusable {
                retry_at_or_below_mhz,
                ..
            } => assert_eq!(retry_at_or_below_mhz, 0.0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_baud_and_other_core_are_errors() {
        let (cfg, core) = small();
        let e = UartBridge::new(cfg, 0)
            .fit(&core, 12_000_000)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--baud 0") && e.contains("300 ..= 12000000"),
            "{e}"
        );
        let other = hdl::CoreParams { seed: 5, ..cfg };
        let e = UartBridge::new(other, 115_200)
            .fit(&core, 12_000_000)
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed=5"), "{e}");
    }

    #[test]
    fn board_design_k2_b9_w32_has_each_module_once_and_one_core() {
        let (cfg, core) = small();
        let board = crate::board::board("icebreaker").unwrap();
        let plan = ClockPlan::fastest_up_to(board, 30.0).unwrap();
        let v = board_design(board, &plan, &UartBridge::new(cfg, 115_200), &core).unwrap();
        assert!(duplicate_modules(&v).is_empty());
        assert_eq!(
            v.matches("\nmodule bloom_core(").count()
                + v.starts_with("module bloom_core(") as usize,
            1
        );
        for m in [
            "module bloom_board_top",
            "module bloom_board_logic",
            "module bloom_board(",
        ] {
            assert!(v.contains(m), "{m} missing");
        }
        // The bridge is made for the clock the PLL makes, and says so.
        let hz = crate::top::clock_hz(&plan);
        assert!(
            v.contains(&format!(".CLOCK_HZ({hz})"))
                && v.contains(&format!("if (CLOCK_HZ != {hz})"))
        );
    }

    /// The scrub goes down to the bridge with the core that has it (its scrub frame
    /// and configuration block say so), and a bridge set up otherwise than the core is refused.
    #[test]
    fn scrub_reaches_the_bridge_and_must_match_the_core() {
        let (cfg, _) = small();
        let core = crate::generate_core(&hdl::CoreConfig {
            scrub: true,
            scrub_every: Some(10_000),
            ..cfg.into()
        })
        .unwrap();
        let board = crate::board::board("icebreaker").unwrap();
        let plan = ClockPlan::fastest_up_to(board, 30.0).unwrap();
        let bridge = UartBridge::new(cfg, 115_200).with_scrub(true, Some(10_000));
        let v = board_design(board, &plan, &bridge, &core).unwrap();
        assert!(
            v.contains(".scrub_req(scrub$req)"),
            "scrub_req bound to the bridge"
        );
        // The configuration block: protocol 4, hash code 3 (feistel, the default family),
        // byte 15 = scrub and power-up check, period 10000.
        let block = [
            4u8, 2, 9, 32, 3, 32, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0x10, 0x27, 0, 0,
        ];
        let word = block
            .iter()
            .rev()
            .map(|b| format!("{b:02x}"))
            .collect::<String>();
        assert!(
            v.contains(&format!(
                "config_word = 320'h{}",
                word.trim_start_matches('0')
            )),
            "configuration block {word}: {}",
            v.lines()
                .find(|l| l.contains("config_word ="))
                .unwrap_or("")
        );
        for wrong in [
            UartBridge::new(cfg, 115_200),
            UartBridge::new(cfg, 115_200).with_scrub(true, None),
        ] {
            let e = wrong.fit(&core, 12_000_000).unwrap_err().to_string();
            assert!(e.contains("scrub"), "{e}");
        }
    }

    #[test]
    fn duplicate_modules_found() {
        assert_eq!(
            duplicate_modules("module a(x);\nendmodule\n  module b;\nmodule a (y);\n"),
            vec!["a".to_string()]
        );
        assert!(duplicate_modules("module a$b(x);\nmodule a(x);\n").is_empty());
    }
}
