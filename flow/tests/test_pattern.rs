//! The board test pattern (flow/src/top.rs) in a simulator of its own, Icarus Verilog:
//! `bloom_board_logic` exactly as `bloom build --top test-pattern [--lanes L]` puts it on
//! the board, with the core it drives, clocked for a few thousand cycles with a clear
//! every 2^5 pairs. The testbench watches the core's responses through hierarchical
//! names and counts, per slot, the queries the pattern marks as must-hit and their
//! misses; the error LED must agree with its count.
//! - L = 1 (`bloom_core`, 64-bit keys), 2, 4 and 8 lanes (`bloom_lanes`; 32-, 64- and
//!   128-bit keys): no miss, no error, every
//!   slot checked in every pair that follows enough inserts, clears taken;
//! - teeth: lanes whose replicas above 0 miss the write beats (`no_write_broadcast`)
//!   light the error LED, and the misses are in slots above 0.
//!
//! Tool: Debian's `iverilog` (scripts/setup.sh installs it; BLOOM_IVERILOG overrides).

// The Icarus runner of hdl's tests, one copy for both crates.
#[path = "../../hdl/tests/common/icarus.rs"]
mod icarus;

use std::path::PathBuf;

use flow::top::{BoardLogic, TestPattern};
use hdl::lanes::LaneSwitches;

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("bloom-test-pattern-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the testbench saw.
#[derive(Debug)]
struct Seen {
    error_led: u32,
    response_beats: u64,
    clears: u64,
    /// Per slot: queries marked must-hit, and those that missed.
    checked: Vec<u64>,
    misses: Vec<u64>,
}

const CLEAR_LOG2: u32 = 5;

fn run_pattern(name: &str, pattern: TestPattern, key_bits: u32, cycles: u64) -> Seen {
    let l = pattern.lanes;
    // Small banks keep a clear (2^b cycles) short.
    let params = hdl::CoreParams::new(3, 6, key_bits, hdl::HashFamily::H3, 5).unwrap();
    let core = flow::generate_core(&params.into()).expect("core generates");
    let board = &flow::board::HX8K_BREAKOUT;
    let logic = pattern.verilog(&core, board, 12_000_000).unwrap();
    let dir = scratch(name);
    std::fs::write(dir.join("design.v"), format!("{logic}\n{}", core.verilog)).unwrap();
    let leds = board.leds.len();
    let (slot_valid, hit) = if l == 1 {
        ("1'b1".to_string(), "dut.resp_hit".to_string())
    } else {
        (
            "dut.resp_slot_valid[j]".to_string(),
            "dut.resp_hit[j]".to_string(),
        )
    };
    let bench = format!(
        "`timescale 1ns/1ps
module tb;
reg clock = 1'b0;
reg reset = 1'b1;
wire [{ledm1}:0] led;
wire uart_tx;
bloom_board_logic #(.CLOCK_HZ(12000000), .LEDS({leds}), .CLEAR_LOG2({CLEAR_LOG2})) dut (
    .clock(clock), .reset(reset), .uart_rx(1'b1), .uart_tx(uart_tx), .led(led));
always #5 clock = ~clock;
integer beats = 0;
integer clears = 0;
integer checked [0:{lm1}];
integer misses [0:{lm1}];
integer j;
initial for (j = 0; j < {l}; j = j + 1) begin checked[j] = 0; misses[j] = 0; end
always @(posedge clock) begin
    if (!reset) begin
        if (dut.resp_valid) begin
            beats = beats + 1;
            for (j = 0; j < {l}; j = j + 1) begin
                if ({slot_valid} && dut.resp_tag[8 * j + 1]) begin
                    checked[j] = checked[j] + 1;
                    if (!{hit}) misses[j] = misses[j] + 1;
                end
            end
        end
        if ((|dut.req_valid) && dut.req_ready && dut.req_op[1:0] == 2'd2) clears = clears + 1;
    end
end
initial begin
    repeat (4) @(negedge clock);
    reset = 1'b0;
    repeat ({cycles}) @(negedge clock);
    $display(\"ERROR %0d\", led[0]);
    $display(\"BEATS %0d\", beats);
    $display(\"CLEARS %0d\", clears);
    for (j = 0; j < {l}; j = j + 1) $display(\"SLOT %0d %0d %0d\", j, checked[j], misses[j]);
    $finish;
end
endmodule
",
        ledm1 = leds - 1,
        lm1 = l - 1,
    );
    std::fs::write(dir.join("tb.v"), bench).unwrap();
    let out = icarus::run(&dir, &["-g2005", "-s", "tb"], &["tb.v", "design.v"]);
    let value = |key: &str| -> u64 {
        let line = out
            .lines()
            .find_map(|x| x.strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in:\n{out}"));
        line.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{key}: {line}"))
    };
    let mut checked = vec![0; l];
    let mut misses = vec![0; l];
    for line in out.lines().filter_map(|x| x.strip_prefix("SLOT ")) {
        let f: Vec<u64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        checked[f[0] as usize] = f[1];
        misses[f[0] as usize] = f[2];
    }
    let seen = Seen {
        error_led: value("ERROR ") as u32,
        response_beats: value("BEATS "),
        clears: value("CLEARS "),
        checked,
        misses,
    };
    eprintln!("{name}: {seen:?}");
    // The bench ran and said what it saw: its files are no longer needed (a
    // run that stops before this point leaves them for inspection).
    let _ = std::fs::remove_dir_all(&dir);
    seen
}

fn assert_clean(name: &str, lanes: usize, key_bits: u32) {
    let cycles = 4000;
    let s = run_pattern(name, TestPattern::over_lanes(lanes), key_bits, cycles);
    assert_eq!(s.error_led, 0, "{s:?}");
    assert!(s.misses.iter().all(|&m| m == 0), "{s:?}");
    // A beat per cycle, but for the clears: 2^5 pairs (64 cycles), then a clear that keeps
    // the core busy for 2^6 cycles.
    assert!(s.response_beats > cycles / 4, "{s:?}");
    assert!(s.clears >= 20, "{s:?}");
    // Of every 2^5 pairs, the clear's read beat checks nothing, and slot j is checked in
    // the read beats after j + 1 inserts: 31 - j pairs.
    let period = 1u64 << CLEAR_LOG2;
    let pairs = s.response_beats / 2;
    for (j, &c) in s.checked.iter().enumerate() {
        let expected = pairs as f64 * (period - 1 - j as u64) as f64 / period as f64;
        assert!(
            c > 0 && (c as f64 - expected).abs() <= period as f64,
            "slot {j}: {c} checked, about {expected} expected: {s:?}"
        );
    }
}

#[test]
fn test_pattern_one_lane_k3_b6_w64_never_errs_in_icarus() {
    assert_clean("l1", 1, 64);
}

#[test]
fn test_pattern_lanes_2_w32_4_w64_8_w128_k3_b6_never_err_in_icarus() {
    for (l, w) in [(2, 32), (4, 64), (8, 128)] {
        assert_clean(&format!("l{l}-w{w}"), l, w);
    }
}

#[test]
fn test_pattern_lanes_4_without_write_broadcast_lights_the_error_led() {
    let broken = TestPattern {
        lanes: 4,
        switches: LaneSwitches {
            no_write_broadcast: true,
            ..Default::default()
        },
    };
    let s = run_pattern("l4-teeth", broken, 64, 1500);
    assert_eq!(s.error_led, 1, "{s:?}");
    assert_eq!(s.misses[0], 0, "slot 0's replica takes the writes: {s:?}");
    assert!(s.misses[1..].iter().all(|&m| m > 0), "{s:?}");
}
