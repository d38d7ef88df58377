//! Elaboration (CoreConfig -> rust-hdl blocks) and Verilog generation with the module
//! names every user of the core relies on: top `bloom_core`, all others `bloom_core_*`.

use std::collections::HashMap;

use bloom_params::CoreParams;
use rust_hdl::prelude::*;
use serde::Serialize;

use crate::config::{CoreConfig, TestSwitches};
use crate::control::Control;
use crate::core::BloomCore;
use crate::counter_ram::CounterRam;
use crate::counting_core::CountingCore;
use crate::counting_partition::CountingPartition;
use crate::hash_matrix::HashMatrix;
use crate::hash_unit::HashUnit;
use crate::partition::Partition;
use crate::ram::BankRam;
use crate::timing::Timing;
use crate::HdlError;

pub const TOP: &str = "bloom_core";

#[derive(Clone, Debug)]
pub struct GeneratedCore {
    /// Self-contained Verilog; top module `bloom_core`, every other module `bloom_core_*`.
    pub verilog: String,
    pub top: String,
    /// What it was generated from.
    pub config: CoreConfig,
    pub timing: Timing,
}

impl GeneratedCore {
    /// What `bloom verilog` writes beside the Verilog (`bloom_core.json`) and
    /// the flow's reports carry: configuration and timing.
    pub fn description(&self) -> CoreDescription {
        CoreDescription {
            top: self.top.clone(),
            params: self.config.params,
            preload: self
                .config
                .preload
                .as_ref()
                .map(|p| p.display().to_string()),
            timing: self.timing,
            test_switches: self.config.test_switches.clone(),
        }
    }
}

/// A generated core's configuration and timing, as one JSON object:
/// `top`, the parameters (`k`, `bank_bits`, ...), `preload`, the timing
/// (`latency`, `clear_cycles`, ...) and `test_switches`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoreDescription {
    pub top: String,
    #[serde(flatten)]
    pub params: CoreParams,
    pub preload: Option<String>,
    #[serde(flatten)]
    pub timing: Timing,
    pub test_switches: TestSwitches,
}

/// Builds the rust-hdl model of the core for `cfg` (W must equal cfg.key_bits). The
/// preload image, if any, is read and checked here.
pub fn build_core<const W: usize>(cfg: &CoreConfig) -> Result<BloomCore<W>, HdlError> {
    cfg.validate()?;
    if cfg.key_bits() != W {
        return Err(HdlError::Config(format!(
            "key_bits = {} built with W = {W}",
            cfg.key_bits()
        )));
    }
    let mut image = match &cfg.preload {
        Some(dir) => Some(crate::image::read_image(dir, cfg)?),
        None => None,
    };
    let parts = (0..cfg.k())
        .map(|p| {
            let initial = image.as_mut().map(|banks| std::mem::take(&mut banks[p]));
            Partition::new(
                p,
                HashUnit::<W>::new(HashMatrix::for_partition(cfg, p)),
                BankRam::new(cfg.bank_bits(), initial),
                cfg.bank_bits(),
                !cfg.test_switches.disable_forwarding,
            )
        })
        .collect();
    let mut core = BloomCore::new(Control::new(cfg.bank_bits()), parts);
    core.connect_all();
    Ok(core)
}

/// Builds the rust-hdl model of the counting core for `cfg` (counter_bits > 1; W must
/// equal cfg.key_bits). The preload image, if any, is a counting image of the same
/// counter width, read and checked here.
pub fn build_counting_core<const W: usize>(cfg: &CoreConfig) -> Result<CountingCore<W>, HdlError> {
    cfg.validate()?;
    if cfg.key_bits() != W {
        return Err(HdlError::Config(format!(
            "key_bits = {} built with W = {W}",
            cfg.key_bits()
        )));
    }
    let c = cfg.params.counter_bits as usize;
    if c < 2 {
        return Err(HdlError::Config(
            "a counting core needs counter_bits >= 2".into(),
        ));
    }
    let mut image = match &cfg.preload {
        Some(dir) => Some(crate::image::read_counter_image(dir, &cfg.params)?),
        None => None,
    };
    let parts = (0..cfg.k())
        .map(|p| {
            let initial = image.as_mut().map(|banks| std::mem::take(&mut banks[p]));
            CountingPartition::new(
                p,
                cfg.k(),
                HashUnit::<W>::new(HashMatrix::for_partition(cfg, p)),
                CounterRam::new(cfg.bank_bits(), c, initial),
                !cfg.test_switches.disable_forwarding,
                !cfg.test_switches.disable_delete_forwarding,
            )
        })
        .collect();
    let mut core = CountingCore::new(Control::new(cfg.bank_bits()), parts);
    core.connect_all();
    Ok(core)
}

fn verilog_of<const W: usize>(cfg: &CoreConfig) -> Result<String, HdlError> {
    if cfg.params.counter_bits > 1 {
        let core = build_counting_core::<W>(cfg)?;
        return Ok(crate::counting_partition::keep_for_synthesis(
            &generate_verilog(&core),
        ));
    }
    let core = build_core::<W>(cfg)?;
    Ok(generate_verilog(&core))
}

pub fn generate_core(cfg: &CoreConfig) -> Result<GeneratedCore, HdlError> {
    cfg.validate()?;
    let raw = match cfg.key_bits() {
        32 => verilog_of::<32>(cfg)?,
        64 => verilog_of::<64>(cfg)?,
        128 => verilog_of::<128>(cfg)?,
        other => unreachable!("validate() admits key_bits {other}"),
    };
    let verilog = rename_modules(&raw, TOP, &flat_bundles())?;
    let verilog = keep_whole(&verilog, cfg.params.counter_bits > 1);
    Ok(GeneratedCore {
        verilog,
        top: TOP.to_string(),
        config: cfg.clone(),
        timing: Timing::of(&cfg.params),
    })
}

/// `verilog` (a core's, modules renamed) with these modules marked
/// `(* keep_hierarchy *)`, so that synthesis maps each on its own, whatever
/// logic surrounds the core:
/// - every hash unit (`{TOP}_parts_{p}_hash`): two LUT4 levels per 16-bit
///   chunk of its XOR trees (hash_unit.rs). Flattened with the rest, ABC
///   shared XOR terms across the units and mapped them anew in every design:
///   two levels in the core alone, but three for 126 of the 192 chunk parities
///   of the default core inside `bloom_axis` on iCE40 (three or four for 128 in
///   a variant of the wrapper, where they were the slowest path of 5 UP5K
///   seeds in 10). The cost is the sharing: 98 LUT4 more for the default core
///   on iCE40 (1031, not 933).
/// - a plain core's response FIFO (`{TOP}_control_fifo`): its head, an AND-OR
///   of the eight entries, two LUT4 levels. Flattened, ABC mapped it in two
///   levels inside `bloom_axis` until an unrelated change to the wrapper's
///   write side, then in three, the slowest path of the wrapper in 9 UP5K
///   seeds of 10 (median 68.47 MHz, not 73.93). Kept, 3 LUT4 more (1034); the
///   core's UP5K median over 10 seeds 87.98 MHz (86.00 before), the wrapper's
///   74.88 (73.93), on HX8K over 15 seeds 217.72 (217.91) and 177.65 (176.12).
///   Not a counting core's: kept there, its HX8K median over 100 seeds fell to
///   165.53 MHz (168.47), 0.902 of the block-RAM loop, 95% interval
///   0.891..0.921 (0.918, 0.902..0.935 flattened).
///
/// `bloom_lanes` holds its cores without them ([`without_kept_whole`]).
fn keep_whole(verilog: &str, counting: bool) -> String {
    keep_hierarchy_of(verilog, |m| is_kept_whole(m, counting))
}

/// A module [`keep_whole`] keeps whole in a plain core (`counting` false) or a
/// counting core.
fn is_kept_whole(module: &str, counting: bool) -> bool {
    is_hash_unit(module) || (!counting && is_response_fifo(module))
}

/// `{TOP}_parts_{p}_hash`: a hash unit's module, after [`rename_modules`].
fn is_hash_unit(module: &str) -> bool {
    module
        .strip_prefix(&format!("{TOP}_parts_"))
        .and_then(|rest| rest.strip_suffix("_hash"))
        .is_some_and(|p| p.parse::<usize>().is_ok())
}

/// `{TOP}_control_fifo`: the response FIFO's module, after [`rename_modules`].
fn is_response_fifo(module: &str) -> bool {
    module == format!("{TOP}_control_fifo")
}

/// `verilog` (a plain core's: lanes hold no counting core) with no module
/// kept whole, as `bloom_lanes` holds its cores: L replicas each paying the
/// hash units' 98 LUT4 of iCE40 (and ABC free to share their terms) left HX8K
/// room for four lanes, not five (7824 of 7680 logic cells at L = 5).
pub(crate) fn without_kept_whole(verilog: &str) -> String {
    let lines: Vec<&str> = verilog.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(i, line)| {
            **line != KEEP_HIERARCHY
                || !lines
                    .get(i + 1)
                    .and_then(|next| module_name(next))
                    .is_some_and(|m| is_kept_whole(m, false))
        })
        .map(|(_, line)| format!("{line}\n"))
        .collect()
}

/// The port bundles whose signals are printed flat: (the bundle's field name
/// in its block, the Verilog prefix, its fields). rust-hdl prints a bundle's
/// signal as `bundle$field`; the generator prints `{prefix}_{field}` (or the
/// field alone), the names the core's ports and internal signals had before
/// they were bundles, so the Verilog (and every name in a netlist or a timing
/// report) is the same whatever the Rust groups together.
/// A port bundle printed flat: its field name in its block, its Verilog prefix, its fields.
pub(crate) type FlatBundle = (&'static str, &'static str, &'static [crate::ports::Field]);

pub(crate) fn flat_bundles() -> Vec<FlatBundle> {
    let mut b: Vec<_> = crate::ports::groups()
        .into_iter()
        .map(|g| {
            (
                g.path.rsplit('$').next().unwrap_or(g.path),
                g.prefix,
                g.fields,
            )
        })
        .collect();
    let counter = crate::ports::counter_group();
    b.push((
        counter.path.rsplit('$').next().unwrap_or(counter.path),
        counter.prefix,
        counter.fields,
    ));
    b.push(("banks", "", crate::partition::FromControl::<1>::FIELDS));
    b.push(("control", "", crate::partition::FromControl::<1>::FIELDS));
    b
}

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
fn module_name(line: &str) -> Option<&str> {
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
