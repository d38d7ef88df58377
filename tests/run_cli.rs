//! `bloom run`, the default pipeline: its input checks, and a short run of the
//! steps that need no FPGA tools (golden model, Verilog, co-simulation).

mod common;

use common::*;


#[test]
fn run_rejects_zero_ops() {
    let out = bloom(&["run", "--ops", "0", "--no-bitstream"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--ops 0 is not allowed"), "{err}");
}

#[test]
fn run_rejects_unknown_board_before_any_work() {
    let dir = std::env::temp_dir().join(format!("bloom-run-badboard-{}", std::process::id()));
    let out = bloom(&["run", "--board", "nosuchboard", "--out", dir.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nosuchboard"), "{err}");
    assert!(!dir.exists(), "a rejected run must not create its output directory");
}

#[test]
fn run_rejects_invalid_configuration() {
    let out = bloom(&["run", "--k", "17", "--no-bitstream"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("17"), "{err}");
}

#[test]
fn run_default_config_no_bitstream_20000_ops() {
    let dir = std::env::temp_dir().join(format!("bloom-run-{}", std::process::id()));
    let out = bloom(&["run", "--no-bitstream", "--ops", "20000", "--out", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("mismatches: 0"), "{text}");
    assert!(text.contains("=== summary"), "{text}");
    assert!(dir.join("verilog/bloom_core.v").is_file());
    assert!(dir.join("verilog/bloom_core.json").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
