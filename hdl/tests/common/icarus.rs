//! Icarus Verilog for the tests that simulate generated Verilog four-state
//! (hdl's four_state, counter_ram, axi_event_counter; flow's test_pattern,
//! which includes this file by path). Tool: Debian's `iverilog` and `vvp`
//! (scripts/setup.sh installs them); BLOOM_IVERILOG overrides the compiler.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

pub fn iverilog() -> String {
    std::env::var("BLOOM_IVERILOG").unwrap_or_else(|_| "iverilog".to_string())
}

/// Compiles `sources` (files in `dir`) with `iverilog OPTIONS` and runs the result
/// with `vvp -n`: its standard output. A missing tool fails the test saying how to
/// install it; a failed compile or run fails it with the tool's messages.
pub fn run(dir: &Path, options: &[&str], sources: &[&str]) -> String {
    let hint = "install it with scripts/setup.sh (Debian: apt-get install iverilog)";
    let compile = Command::new(iverilog())
        .current_dir(dir)
        .args(["-o", "sim.vvp"])
        .args(options)
        .args(sources)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}); {hint}", iverilog()));
    assert!(
        compile.status.success(),
        "iverilog failed:\n{}",
        String::from_utf8_lossy(&compile.stderr)
    );
    let run = Command::new("vvp")
        .current_dir(dir)
        .args(["-n", "sim.vvp"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run vvp ({e}), part of iverilog; {hint}"));
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "vvp failed:\n{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    out
}
