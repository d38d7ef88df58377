//! The board top's generator: parameter validation and a Verilator lint of the
//! generated text (board top + bridge + the real core, one file).

use hdl::bridge::{generate_board_top, BoardTopConfig, BridgeError, DEFAULT_BAUD};
use hdl::CoreConfig;

fn lint(verilog: &str, top: &str, _tag: &str) {
    if let Err(report) = hdl::verilog::lint::verilator_lint_with(
        verilog,
        top,
        hdl::verilog::lint::BOARD_TOP_WAIVERS,
        false,
    ) {
        panic!("{report}");
    }
}

#[test]
fn board_top_12mhz_115200_default_core_lints() {
    let cfg = BoardTopConfig::new(CoreConfig::default(), 12_000_000, DEFAULT_BAUD);
    let g = generate_board_top(&cfg).unwrap();
    assert_eq!(g.top, "bloom_board");
    assert_eq!(g.clocks_per_bit, 104);
    assert!(
        g.verilog
            .contains("module bloom_board(clock,reset,uart_rx,uart_tx,leds);"),
        "{}",
        &g.verilog[..2000]
    );
    assert!(g.verilog.contains("module bloom_core("));
    assert_eq!(g.max_batch, 31);
    lint(&g.verilog, &g.top, "default");
}

#[test]
fn board_top_w128_k16_3mbaud_lints() {
    let core = CoreConfig::from(hdl::CoreParams {
        k: 16,
        bank_bits: 6,
        key_bits: 128,
        hash: hdl::HashFamily::Spn,
        ..Default::default()
    });
    let cfg = BoardTopConfig::new(core, 12_000_000, 3_000_000);
    let g = generate_board_top(&cfg).unwrap();
    assert_eq!(g.clocks_per_bit, 4);
    assert_eq!(g.max_batch, 15);
    lint(&g.verilog, &g.top, "w128");
}

#[test]
fn board_top_rejects_unreachable_baud_and_bad_values() {
    let bad = |clock: u64, baud: u32| {
        generate_board_top(&BoardTopConfig::new(CoreConfig::default(), clock, baud)).unwrap_err()
    };
    // 12 MHz / 4 Mbaud = 3 clocks per bit: too few for the receiver.
    assert!(matches!(
        bad(12_000_000, 4_000_000),
        BridgeError::BaudNotReachable { .. }
    ));
    // 12 MHz / 1 Mbaud = 12: exact. 12 MHz / 1.5 Mbaud = 8: exact. 25 MHz / 921600 = 27.1: 0.5%.
    generate_board_top(&BoardTopConfig::new(
        CoreConfig::default(),
        25_000_000,
        921_600,
    ))
    .unwrap();
    // 10 MHz / 2 Mbaud = 5 exactly, 10 MHz / 1.8 Mbaud = 5.56 -> 6: 7.4% off.
    let e = bad(10_000_000, 1_800_000);
    assert!(e.to_string().contains("1800000"), "{e}");
    assert!(matches!(bad(12_000_000, 0), BridgeError::BadBaud(0)));
    assert!(matches!(bad(0, 115_200), BridgeError::BadClock(0)));
    let core = CoreConfig::from(hdl::CoreParams {
        k: 17,
        ..Default::default()
    });
    assert!(generate_board_top(&BoardTopConfig::new(core, 12_000_000, 115_200)).is_err());
}

/// The board top with a counting core behind the bridge: the counter ports are
/// connected (no open input, no undriven output), for the narrowest and the widest counters.
#[test]
fn board_top_counting_c2_and_c8_12mhz_115200_lint() {
    for c in [2, 8] {
        let params = hdl::CoreParams::default().with_counter_bits(c).unwrap();
        let g = generate_board_top(&BoardTopConfig::new(
            CoreConfig::from(params),
            12_000_000,
            DEFAULT_BAUD,
        ))
        .unwrap();
        for port in ["saturated", "wdata", "rdata"] {
            let binding = format!(".counter_{port}(counter${port})");
            assert!(
                g.verilog.contains(&binding),
                "c = {c}: the core's counter_{port} is bound to the box's port"
            );
        }
        lint(&g.verilog, &g.top, "counting");
    }
}

/// Behind a plain core the box's counter outputs are tied to 0 and the core has no counter ports.
#[test]
fn board_top_plain_core_ties_counter_outputs() {
    let g = generate_board_top(&BoardTopConfig::new(
        CoreConfig::default(),
        12_000_000,
        DEFAULT_BAUD,
    ))
    .unwrap();
    assert!(!g.verilog.contains(".counter_saturated("));
    assert!(
        g.verilog.contains("assign counter$saturated = 17'd0;"),
        "tie-off"
    );
}

/// The scrub's ports are bound to the bridge, with and without the scrub (a core
/// without it ignores scrub_req and reads 0): no open input, no undriven output;
/// a plain and a counting core with the scrub, one periodic, lint; a period
/// without the scrub is refused.
#[test]
fn board_top_scrub_ports_bound_and_lint() {
    for (counter_bits, scrub, every) in [(1, false, None), (1, true, None), (4, true, Some(5000))] {
        let params = hdl::CoreParams::default()
            .with_counter_bits(counter_bits)
            .unwrap();
        let core = CoreConfig {
            scrub,
            scrub_every: every,
            ..CoreConfig::from(params)
        };
        let g = generate_board_top(&BoardTopConfig::new(core, 12_000_000, DEFAULT_BAUD)).unwrap();
        for port in ["req", "busy", "mismatch"] {
            let binding = format!(".scrub_{port}(scrub${port})");
            assert!(
                g.verilog.contains(&binding),
                "c = {counter_bits}, scrub {scrub}: the core's scrub_{port} is bound to the box's port"
            );
        }
        if scrub {
            lint(&g.verilog, &g.top, "scrub");
        }
    }
    let core = CoreConfig {
        scrub_every: Some(100),
        ..CoreConfig::default()
    };
    let e = generate_board_top(&BoardTopConfig::new(core, 12_000_000, DEFAULT_BAUD)).unwrap_err();
    assert!(e.to_string().contains("needs the scrub"), "{e}");
}
