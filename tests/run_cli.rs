//! `bloom run`, the default pipeline: its input checks, and a short run of the
//! steps that need no FPGA tools (golden model, Verilog, co-simulation).

mod common;

use common::*;

#[test]
fn run_rejects_zero_ops() {
    assert_fails(
        &["run", "--ops", "0", "--no-bitstream"],
        "--ops 0 is not allowed",
    );
}

#[test]
fn run_rejects_unknown_board_before_any_work() {
    let dir = std::env::temp_dir().join(format!("bloom-run-badboard-{}", std::process::id()));
    assert_fails(
        &[
            "run",
            "--board",
            "nosuchboard",
            "--out",
            dir.to_str().unwrap(),
        ],
        "nosuchboard",
    );
    assert!(
        !dir.exists(),
        "a rejected run must not create its output directory"
    );
}

#[test]
fn run_rejects_invalid_configuration() {
    assert_fails(&["run", "--k", "17", "--no-bitstream"], "17");
}

/// `bloom run CORE --no-bitstream --ops 20000 --out DIR`, which must succeed with no
/// mismatch: what it printed.
fn run_without_bitstream(core: &[&str], dir: &std::path::Path) -> String {
    let args = [
        core,
        &[
            "--no-bitstream",
            "--ops",
            "20000",
            "--out",
            dir.to_str().unwrap(),
        ],
    ]
    .concat();
    let out = bloom(&[&["run"][..], &args].concat());
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(text.contains("mismatches: 0"), "{text}");
    text
}

#[test]
fn run_default_config_no_bitstream_20000_ops() {
    let dir = std::env::temp_dir().join(format!("bloom-run-{}", std::process::id()));
    let text = run_without_bitstream(&[], &dir);
    assert!(text.contains("=== summary"), "{text}");
    assert!(dir.join("verilog/bloom_core.v").is_file());
    assert!(dir.join("verilog/bloom_core.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_counting_k3_b6_c2_no_bitstream_20000_ops() {
    let dir = std::env::temp_dir().join(format!("bloom-run-c2-{}", std::process::id()));
    let text = run_without_bitstream(
        &["--counter-bits", "2", "--k", "3", "--bank-bits", "6"],
        &dir,
    );
    // The co-simulation's report says how often the counting situations happened.
    let line = text
        .lines()
        .find(|l| l.starts_with("counting (counters of 2 bits, saturated at 3)"))
        .unwrap_or_else(|| panic!("{text}"));
    for what in ["reaching saturation", "of absent keys", "after saturation"] {
        assert!(
            !line.contains(&format!(" 0 {what}")) && !line.contains(&format!("(0 {what}")),
            "{what} never happened: {line}"
        );
    }
    let json = std::fs::read_to_string(dir.join("verilog/bloom_core.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // The default family, Feistel: its network's two cycles more than H3's 7.
    assert_eq!(
        (v["counter_bits"].as_u64(), v["commit_latency"].as_u64()),
        (Some(2), Some(9)),
        "{json}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
