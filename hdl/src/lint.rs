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

/// Arguments of `verilator --lint-only -Wall` for `file` with top `top` and the waivers.
pub fn verilator_lint_args(file: &Path, top: &str) -> Vec<String> {
    let mut args = vec!["--lint-only".to_string(), "-Wall".to_string(), "--top-module".to_string(), top.to_string()];
    args.extend(VERILATOR_WAIVERS.iter().map(|(w, _)| format!("-Wno-{w}")));
    args.push(file.display().to_string());
    args
}

/// Lints `verilog` (written to a scratch file) with Verilator. Err holds Verilator's
/// report, or an install hint when Verilator is missing.
pub fn verilator_lint(verilog: &str, top: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!(
        "bloom-hdl-lint-{}-{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(format!("{top}.v"));
    std::fs::write(&file, verilog).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let result = Command::new("verilator").args(verilator_lint_args(&file, top)).output();
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
