//! The whole flow, core to bitstream, for one small configuration per family
//! (k = 2, 2^11-bit banks, 32-bit keys, H3), each one toolchain run checked
//! from every side: report fields, files on disk, logs. The iCE40 build has
//! the UART host bridge in its board top (what `bloom build` makes by
//! default), the ECP5 build the test pattern.
//!
//! These need the FPGA tools; a missing tool fails the test with the command
//! that installs it (`scripts/setup.sh` installs them all).

use flow::board::{self, Board};
use flow::bridge::UartBridge;
use flow::build::{build, BuildOptions, BuildReport};
use flow::tools::{Progress, Tool};
use flow::top::{BoardLogic, TestPattern};
use flow::GeneratedCore;
use std::path::Path;

fn small_config() -> hdl::CoreParams {
    hdl::CoreParams::new(2, 11, 32, hdl::HashFamily::H3, 0).unwrap()
}

fn small_core() -> GeneratedCore {
    flow::generate_core(&small_config().into()).expect("core generates")
}

fn require_tools(tools: &[Tool]) {
    for t in tools {
        if let Err(e) = t.locate() {
            panic!("{e}");
        }
    }
}

fn build_small(
    board: &'static Board,
    freq: f64,
    dir: &Path,
    logic: &dyn BoardLogic,
) -> BuildReport {
    require_tools(&flow::build::toolchain(board.device.family));
    let _ = std::fs::remove_dir_all(dir);
    let opts = BuildOptions {
        board,
        out_dir: dir.to_path_buf(),
        pnr_seed: 1,
        freq_mhz: Some(freq),
        logic,
        progress: Progress::quiet(),
    };
    build(&small_core(), &opts).unwrap_or_else(|e| panic!("build for {} failed: {e}", board.name))
}

/// `logic_brams`: block RAMs the board logic uses besides the core's banks.
fn check_report(r: &BuildReport, board: &Board, dir: &Path, freq: f64, logic_brams: u64) {
    let d = board.device;
    assert_eq!(r.board, board.name);
    assert_eq!(r.part, d.part);
    assert_eq!(r.package, board.package_title);
    // The PLL never runs faster than asked, and a modest constraint is met.
    assert!(
        r.constrained_mhz <= freq && r.constrained_mhz > freq * 0.8,
        "{}",
        r.constrained_mhz
    );
    assert!(r.routed_fmax_mhz > 0.0 && r.routed_fmax_mhz.is_finite());
    assert!(r.timing_met, "timing not met: {r:?}");
    assert!(r.routed_fmax_mhz >= r.constrained_mhz);
    assert_eq!(
        r.clocks.len(),
        1,
        "one clock domain expected: {:?}",
        r.clocks
    );
    // One block RAM per bank: the minimum for 2 banks of 2048 bits.
    assert_eq!(r.resources.brams_minimum, 2);
    assert_eq!(
        r.resources.brams.used,
        2 + logic_brams,
        "block RAMs: {:?}",
        r.resources
    );
    let banks = r
        .resources
        .memories
        .iter()
        .filter(|m| m.memory.contains("parts$") && m.memory.ends_with(".ram.mem"))
        .count();
    assert_eq!(banks, 2, "one memory per bank: {:?}", r.resources.memories);
    assert_eq!(
        r.resources.brams.total, d.brams as u64,
        "nextpnr's total differs from the board table"
    );
    assert_eq!(r.resources.luts.total, d.luts as u64);
    assert!(r.resources.luts.used > 50 && r.resources.luts.used < r.resources.luts.total);
    assert!(r.resources.ffs.used > 50 && r.resources.ffs.used < r.resources.ffs.total);
    for t in flow::build::toolchain(d.family) {
        let v = r
            .tools
            .get(t.program())
            .unwrap_or_else(|| panic!("no version for {}", t.program()));
        assert!(!v.is_empty() && v != "unknown", "{}: {v}", t.program());
    }
    // Files: the bitstream (non-trivial, no temporary left), both reports, the logs.
    let bit = dir.join(flow::build::bitstream_name(d.family));
    assert_eq!(Path::new(&r.bitstream), bit);
    let size = std::fs::metadata(&bit).expect("bitstream exists").len();
    assert!(size > 10_000, "bitstream only {size} bytes");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["part"], d.part);
    assert_eq!(json["timing_met"], true);
    assert_eq!(json["resources"]["brams"]["used"], 2 + logic_brams);
    assert_eq!(json["top"], r.top);
    assert_eq!(json["core"]["k"], 2);
    let txt = std::fs::read_to_string(dir.join("report.txt")).unwrap();
    assert!(txt.contains("routed Fmax") && txt.contains(d.part));
    let pass = Path::new(&r.passes[0].dir);
    for log in ["board-yosys.log", "board-nextpnr.log"] {
        let text = std::fs::read_to_string(pass.join(log)).unwrap_or_else(|e| panic!("{log}: {e}"));
        assert!(text.len() > 1000, "{log} is nearly empty");
    }
    // The packer says little; its log holds at least the command that ran.
    let pack = std::fs::read_to_string(pass.join("pack.log")).unwrap();
    assert!(
        pack.starts_with("# ") && (pack.contains("icepack") || pack.contains("ecppack")),
        "{pack}"
    );
    // Every build records where its (here empty) filter sits, for `bloom image swap`.
    assert!(r.swap.swappable, "{:?}", r.swap);
    assert_eq!(r.swap.bits_checked, 2 * 2048);
    let manifest = flow::swap::Manifest::read(&flow::swap::manifest_path(&bit)).unwrap();
    assert_eq!(manifest.fill, vec![0, 0]);
    assert_eq!(
        manifest.banks.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![1, 1]
    );
    assert_eq!(json["swap"]["swappable"], true);
    assert!(
        txt.contains("filter swap") && txt.contains("bloom image swap --bitstream"),
        "{txt}"
    );
    let leftovers: Vec<_> = walk(dir)
        .into_iter()
        .filter(|p| p.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p.display().to_string());
        }
    }
    out
}

fn out_dir(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn icebreaker_up5k_k2_b11_w32_h3_uart_bridge_115200_to_bitstream() {
    let b = board::board("icebreaker").unwrap();
    let dir = out_dir("flow-icebreaker-k2-b11");
    let bridge = UartBridge::new(small_config(), 115_200);
    let r = build_small(b, 20.0, &dir, &bridge);
    // The bridge's frame buffer takes one block RAM of its own.
    check_report(&r, b, &dir, 20.0, 1);
    let buffers: Vec<_> = r
        .resources
        .memories
        .iter()
        .filter(|m| m.memory.contains("bridge.frames.buffer"))
        .collect();
    assert_eq!(buffers.len(), 1, "{:?}", r.resources.memories);
    assert!(r.resources.logic_cells.is_some());
    // 12 MHz in, 19.875 MHz out: the PLL is used and named in the report.
    assert!(matches!(
        r.clock,
        flow::top::ClockPlan::Ice40Pll { from_pad: true, .. }
    ));
    assert_eq!(r.constrained_mhz, 19.875);
    // The UART divider is worked out from the clock the PLL makes, not the
    // oscillator's or the requested one: 19.875 MHz / 115200 = 172.5 -> 173.
    assert_eq!(r.top, "uart-bridge");
    let u = r.uart.as_ref().expect("the bridge reports its UART");
    assert_eq!((u.baud, u.clocks_per_bit), (115_200, 173));
    assert!((u.actual_baud - 19_875_000.0 / 173.0).abs() < 1e-6, "{u:?}");
    assert!(u.error_pct < 2.0);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(json["top"], "uart-bridge");
    assert_eq!(json["uart"]["baud"], 115_200);
    assert_eq!(json["uart"]["clocks_per_bit"], 173);
    let txt = std::fs::read_to_string(dir.join("report.txt")).unwrap();
    assert!(
        txt.contains("uart-bridge")
            && txt.contains("115200 baud asked")
            && txt.contains("173 clocks per bit"),
        "{txt}"
    );
    // The design synthesised: the board top, the bridge for 19.875 MHz, one core.
    let v = std::fs::read_to_string(Path::new(&r.passes[0].dir).join("board.v")).unwrap();
    assert!(v.contains("SB_PLL40_PAD"));
    assert!(v.contains(".CLOCK_HZ(19875000)") && v.contains("if (CLOCK_HZ != 19875000)"));
    assert!(v.contains("module bloom_board(clock,reset,uart_rx,uart_tx,leds);"));
    assert_eq!(v.matches("module bloom_core(").count(), 1);
    // The UART pins reach logic in the synthesised netlist (the test pattern
    // ties uart_tx to 1 and leaves uart_rx unread).
    let (tx_driven, rx_read) = uart_pins_used(&Path::new(&r.passes[0].dir).join("board.json"));
    assert!(
        tx_driven && rx_read,
        "uart_tx driven by logic: {tx_driven}, uart_rx read by logic: {rx_read}"
    );
}

/// Whether the top's uart_tx is driven by a cell (not a constant) and its
/// uart_rx feeds a cell, in a Yosys JSON netlist.
fn uart_pins_used(netlist: &Path) -> (bool, bool) {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(netlist).unwrap()).unwrap();
    let top = &v["modules"]["bloom_board_top"];
    let bits = |port: &str| -> Vec<serde_json::Value> {
        top["ports"][port]["bits"].as_array().unwrap().clone()
    };
    let touches = |bit: &serde_json::Value, output: bool| {
        top["cells"].as_object().unwrap().values().any(|c| {
            c["connections"]
                .as_object()
                .unwrap()
                .iter()
                .any(|(pin, net)| {
                    let dir = c["port_directions"][pin].as_str().unwrap_or("");
                    (dir == "output") == output && net.as_array().unwrap().contains(bit)
                })
        })
    };
    let tx = bits("uart_tx");
    let rx = bits("uart_rx");
    (
        tx[0].is_u64() && touches(&tx[0], true),
        touches(&rx[0], false),
    )
}

#[test]
fn ulx3s_25f_k2_b11_w32_h3_test_pattern_to_bitstream() {
    let b = board::board("ulx3s-25f").unwrap();
    let dir = out_dir("flow-ulx3s25-k2-b11");
    let r = build_small(b, 40.0, &dir, &TestPattern::ONE_LANE);
    check_report(&r, b, &dir, 40.0, 0);
    assert_eq!(r.top, "test-pattern");
    assert!(r.uart.is_none());
    let (tx_driven, _) = uart_pins_used(&Path::new(&r.passes[0].dir).join("board.json"));
    assert!(!tx_driven, "the test pattern's uart_tx is a constant");
    assert!(matches!(r.clock, flow::top::ClockPlan::Ecp5Pll { .. }));
    assert!(r.resources.logic_cells.is_none());
}
