//! Verilator lint of the generated Verilog, with the short list of waived warnings.
//!
//! `verilator --lint-only -Wall` runs on the generated file with only these waivers.

use std::path::Path;
use std::process::Command;

/// Warnings waived by name, each for a stated reason. Nothing else is waived.
pub const VERILATOR_WAIVERS: &[(&str, &str)] = &[(
    "DECLFILENAME",
    "the generated Verilog is one self-contained file holding every module, so module and file names cannot all match",
)];

/// The board top (bridge and core in one text) also waives these, and its lint
/// reports warnings without failing on them: the bridge carries 128-bit keys of
/// which a narrower core reads only the low bits, and it does not read every
/// port of the core.
pub const BOARD_TOP_WAIVERS: &[(&str, &str)] = &[
    (
        "DECLFILENAME",
        "one self-contained file holding every module",
    ),
    (
        "UNUSED",
        "the bridge drives 128-bit keys and reads only the core ports it needs",
    ),
];

/// Arguments of `verilator --lint-only -Wall` for `file` with top `top` and the waivers.
pub fn verilator_lint_args(file: &Path, top: &str) -> Vec<String> {
    lint_args(file, top, VERILATOR_WAIVERS, true)
}

fn lint_args(
    file: &Path,
    top: &str,
    waivers: &[(&str, &str)],
    warnings_fatal: bool,
) -> Vec<String> {
    let mut args = vec![
        "--lint-only".to_string(),
        "-Wall".to_string(),
        "--top-module".to_string(),
        top.to_string(),
    ];
    if !warnings_fatal {
        args.push("-Wno-fatal".to_string());
    }
    args.extend(waivers.iter().map(|(w, _)| format!("-Wno-{w}")));
    args.push(file.display().to_string());
    args
}

/// Lints `verilog` (written to a scratch file) with Verilator. Err holds Verilator's
/// report, or an install hint when Verilator is missing.
pub fn verilator_lint(verilog: &str, top: &str) -> Result<(), String> {
    verilator_lint_with(verilog, top, VERILATOR_WAIVERS, true)
}

/// As [`verilator_lint`], with other waivers, and optionally warnings reported without failing.
pub fn verilator_lint_with(
    verilog: &str,
    top: &str,
    waivers: &[(&str, &str)],
    warnings_fatal: bool,
) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!(
        "bloom-hdl-lint-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(format!("{top}.v"));
    std::fs::write(&file, verilog).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let result = Command::new("verilator")
        .args(lint_args(&file, top, waivers, warnings_fatal))
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Err(e) => Err(format!(
            "cannot run verilator ({e}); install it with scripts/setup.sh (Debian: apt-get install verilator)"
        )),
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "verilator --lint-only -Wall failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}
