//! The Verilog text passes: what the generator does to the text rust-hdl prints,
//! in one place. Each takes Verilog and returns Verilog; none knows a block of the
//! core (callers say which modules, nets and bundles they mean).
//!
//! - [`rename_modules`]: rust-hdl's path names (`top$control$fifo`) become
//!   `{top}_control_fifo`, and port bundles' signals are printed flat;
//! - [`keep_hierarchy_of`]: `(* keep_hierarchy *)` on chosen modules;
//! - [`keep_nets`]: `(* keep *)` on chosen registers or wires.

use std::collections::HashMap;

use crate::HdlError;

/// A port bundle printed flat: its field name in its block, its Verilog prefix, its fields.
pub(crate) type FlatBundle = (&'static str, &'static str, &'static [crate::ports::Field]);

/// `io$req$valid` -> `req_valid`, `control$banks$key1` -> `control$key1`,
/// `parts$0$control$key1` -> `parts$0$key1` (see [`flat_bundles`]).
fn flatten(ident: &str, bundles: &[FlatBundle]) -> String {
    let segs: Vec<&str> = ident.split('$').collect();
    let is_pair = |a: &str, b: &str| {
        bundles
            .iter()
            .find(|(s, _, f)| *s == a && f.iter().any(|x| x.name == b))
    };
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < segs.len() {
        if segs[i] == "io"
            && i + 1 < segs.len()
            && bundles.iter().any(|(s, _, _)| *s == segs[i + 1])
        {
            i += 1;
        } else if let Some((_, prefix, _)) = (i + 1 < segs.len())
            .then(|| is_pair(segs[i], segs[i + 1]))
            .flatten()
        {
            out.push(if prefix.is_empty() {
                segs[i + 1].to_string()
            } else {
                format!("{prefix}_{}", segs[i + 1])
            });
            i += 2;
        } else {
            out.push(segs[i].to_string());
            i += 1;
        }
    }
    out.join("$")
}

/// rust-hdl names modules by their path (`top`, `top$control$fifo`, ...). Renames them to
/// `{top}` and `{top}_control_fifo`, ..., and prints the port bundles' signals
/// flat (`bundles`, [`flat_bundles`] for the core), touching only whole identifiers. A
/// flat name that some other signal of the same module already has is an error.
pub(crate) fn rename_modules(
    verilog: &str,
    top: &str,
    bundles: &[FlatBundle],
) -> Result<String, HdlError> {
    let mut names = HashMap::new();
    for line in verilog.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or("").trim();
            let new = if name == "top" {
                top.to_string()
            } else if let Some(path) = name.strip_prefix("top$") {
                format!("{top}_{}", path.replace('$', "_"))
            } else {
                return Err(HdlError::Generate(format!(
                    "unexpected module name `{name}`"
                )));
            };
            names.insert(name.to_string(), new);
        }
    }
    // Per module: every identifier it has, and what it is renamed to.
    let mut module_idents: std::collections::HashSet<&str> = Default::default();
    let mut module_renames: HashMap<String, &str> = HashMap::new();
    let check = |idents: &std::collections::HashSet<&str>,
                 renames: &HashMap<String, &str>|
     -> Result<(), HdlError> {
        for (new, old) in renames {
            if idents.contains(new.as_str()) {
                return Err(HdlError::Generate(format!(
                    "`{old}` printed flat is `{new}`, a name the module already has"
                )));
            }
        }
        Ok(())
    };
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 16);
    let bytes = verilog.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
            // rust-hdl prints a link of two plain signals as `a$b$` (an empty
            // field name after the `$`): the name is `a$b`.
            let ident = verilog[start..i].trim_end_matches('$');
            if ident == "module" || ident == "endmodule" {
                check(&module_idents, &module_renames)?;
                module_idents.clear();
                module_renames.clear();
            }
            // `.port(` names a port of the instantiated module, not a signal of this one
            // (that module's own renames are checked with it).
            let own = start == 0 || bytes[start - 1] != b'.';
            match names.get(ident) {
                Some(n) => out.push_str(n),
                None if ident.contains('$') => {
                    let flat = flatten(ident, bundles);
                    if flat != ident && own {
                        module_renames.insert(flat.clone(), ident);
                    }
                    out.push_str(&flat);
                }
                None => out.push_str(ident),
            }
            if own {
                module_idents.insert(ident);
            }
        } else if c.is_ascii_digit() || c == b'\'' || c == b'$' {
            // Numbers and based literals (4'hf, 32'h0000abcd) and system tasks are copied
            // whole, so that no part of them is mistaken for an identifier.
            let start = i;
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'_'
                    || bytes[i] == b'\''
                    || bytes[i] == b'$')
            {
                i += 1;
            }
            out.push_str(&verilog[start..i]);
        } else {
            let ch = verilog[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    check(&module_idents, &module_renames)?;
    Ok(out)
}

/// The module a line declares (`module NAME(...`), if it declares one.
pub(crate) fn module_name(line: &str) -> Option<&str> {
    line.strip_prefix("module ")
        .and_then(|rest| rest.split('(').next())
}

/// The attribute line [`keep_hierarchy_of`] puts before a module.
const KEEP_HIERARCHY: &str = "(* keep_hierarchy *)";

/// `verilog` with every module whose name `kept` accepts marked `(* keep_hierarchy *)`:
/// Yosys then neither merges its flip-flops with identical ones elsewhere nor folds logic
/// across its boundary; simulators ignore the attribute.
pub(crate) fn keep_hierarchy_of(verilog: &str, kept: impl Fn(&str) -> bool) -> String {
    verilog
        .lines()
        .map(|line| {
            if module_name(line).is_some_and(&kept) {
                format!("{KEEP_HIERARCHY}\n{line}\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

/// `verilog` with `(* keep *)` before every declaration `decl` names (the exact text
/// rust-hdl prints, e.g. ` reg  slot_term5;` or ` wire  parts$0$term5;`), so synthesis
/// keeps that net.
pub(crate) fn keep_nets<'a>(
    verilog: &str,
    decls: impl IntoIterator<Item = (&'a str, String)>,
) -> String {
    decls
        .into_iter()
        .fold(verilog.to_string(), |v, (kind, name)| {
            v.replace(
                &format!(" {kind}  {name};"),
                &format!(" (* keep *) {kind}  {name};"),
            )
        })
}
