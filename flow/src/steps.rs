//! The flow's steps, one function per tool: synthesise (Yosys), place and
//! route (nextpnr), pack (icepack / ecppack), program (openFPGALoader). Each
//! runs in a working directory with relative file names (the yowasp tools see
//! only their working directory) and keeps its tool's full log there.

use crate::board::{Board, Device, Family};
use crate::nextpnr::{self, ClockTiming, Use};
use crate::tools::{self, Progress, Tool};
use crate::FlowError;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn io_err(what: &str, path: &Path, e: std::io::Error) -> FlowError {
    FlowError::Io(format!("{what} {}: {e}", path.display()))
}

pub fn write(path: &Path, text: &str) -> Result<(), FlowError> {
    std::fs::write(path, text).map_err(|e| io_err("writing", path, e))
}

pub fn synth_tool(family: Family) -> Tool {
    match family {
        Family::Ice40 => Tool::Yosys,
        Family::Ecp5 => Tool::YowaspYosys,
    }
}

pub fn pnr_tool(family: Family) -> Tool {
    match family {
        Family::Ice40 => Tool::NextpnrIce40,
        Family::Ecp5 => Tool::NextpnrEcp5,
    }
}

pub fn pack_tool(family: Family) -> Tool {
    match family {
        Family::Ice40 => Tool::Icepack,
        Family::Ecp5 => Tool::Ecppack,
    }
}

/// Cell counts after synthesis, per module (`design` is the whole design).
#[derive(Clone, Debug, Default, Serialize)]
pub struct CellCounts {
    pub cells: BTreeMap<String, u64>,
}

impl CellCounts {
    pub fn count(&self, pred: impl Fn(&str) -> bool) -> u64 {
        self.cells
            .iter()
            .filter(|(k, _)| pred(k))
            .map(|(_, v)| v)
            .sum()
    }
    /// LUT4s: iCE40 SB_LUT4 cells (carries have their own logic); ECP5 LUT4
    /// cells plus two per CCU2C carry cell (which is built from two LUT4s).
    pub fn luts(&self) -> u64 {
        self.count(|c| c == "SB_LUT4" || c == "LUT4") + 2 * self.count(|c| c == "CCU2C")
    }
    pub fn ffs(&self) -> u64 {
        self.count(|c| c.starts_with("SB_DFF") || c == "TRELLIS_FF")
    }
}

fn parse_stat(path: &Path) -> Result<BTreeMap<String, CellCounts>, FlowError> {
    let text = std::fs::read_to_string(path).map_err(|e| io_err("reading", path, e))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| FlowError::Io(format!("parsing {}: {e}", path.display())))?;
    let mut out = BTreeMap::new();
    let mut add = |name: &str, m: &serde_json::Value| {
        let mut c = CellCounts::default();
        if let Some(t) = m.get("num_cells_by_type").and_then(|t| t.as_object()) {
            for (k, n) in t {
                c.cells.insert(k.clone(), n.as_u64().unwrap_or(0));
            }
        }
        out.insert(name.trim_start_matches('\\').to_string(), c);
    };
    if let Some(mods) = v.get("modules").and_then(|m| m.as_object()) {
        for (name, m) in mods {
            add(name, m);
        }
    }
    if let Some(d) = v.get("design") {
        add("design", d);
    }
    Ok(out)
}

pub struct Synthesis {
    pub json: PathBuf,
    pub cells: CellCounts,
    /// Each memory Yosys mapped to RAM cells, with the cell type.
    pub memories: Vec<MappedMemory>,
    pub log: PathBuf,
}

/// A memory of the design and the RAM cell type Yosys built it from
/// (`$__ICE40_RAM4K_`, `$__DP16KD_`, ...).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MappedMemory {
    /// Hierarchical name below the top, e.g. `board_logic.bridge_top.bridge.frames.buffer.mem`.
    pub memory: String,
    pub cell: String,
}

/// The "mapping memory NAME via TYPE" lines of a Yosys log (memory_libmap).
pub fn mapped_memories(log: &str, top: &str) -> Vec<MappedMemory> {
    let prefix = format!("{top}.");
    log.lines()
        .filter_map(|l| l.trim().strip_prefix("mapping memory "))
        .filter_map(|rest| rest.split_once(" via "))
        .map(|(name, cell)| MappedMemory {
            memory: name.trim().trim_start_matches(&prefix).to_string(),
            cell: cell.trim().to_string(),
        })
        .collect()
}

/// The banks whose block RAM cells the core instantiates itself (iCE40,
/// hdl/src/core/ram.rs), which Yosys's log does not list as mapped memories: one
/// entry per memory, named as Yosys names an inferred one (`...parts$0.ram.mem`),
/// from the netlist's SB_RAM40_4K cells `<memory>.0.C` (inferred memories' cells are
/// named so too: the caller keeps the log's entry for those).
fn instantiated_banks(json: &Path) -> Result<Vec<MappedMemory>, FlowError> {
    let text = std::fs::read_to_string(json).map_err(|e| io_err("reading", json, e))?;
    let netlist: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| FlowError::Io(format!("parsing {}: {e}", json.display())))?;
    let mut banks = std::collections::BTreeMap::new();
    for module in netlist["modules"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
    {
        for (name, cell) in module["cells"].as_object().into_iter().flatten() {
            let Some((memory, index)) = name.rsplit_once(".0.") else {
                continue;
            };
            let ty = cell["type"].as_str().unwrap_or("");
            if (memory == "mem" || memory.ends_with(".mem"))
                && ty == "SB_RAM40_4K"
                && !index.is_empty()
                && index.bytes().all(|c| c.is_ascii_digit())
            {
                banks.insert(memory.to_string(), ty.to_string());
            }
        }
    }
    Ok(banks
        .into_iter()
        .map(|(memory, cell)| MappedMemory { memory, cell })
        .collect())
}

/// The options every synthesis of the family gives its pass ([`synth_pass`]; the
/// packages' FuseSoC targets pass the same). On ECP5 no LUT5..LUT7 (`-nowidelut`):
/// with them, ABC maps for depth and builds each wide function from four LUT4s and
/// the slice's muxes, which doubled the default core's logic (1631 LUT4 against 872,
/// the Feistel network 570 against 268, the response FIFO 653 against 196) for no
/// speed: the core's Fmax is its block RAM's read (149.43 MHz median over seeds
/// 1..10 with them, 149.37 without; docs/core.md).
pub fn synth_options(family: Family) -> &'static [&'static str] {
    match family {
        Family::Ice40 => &[],
        Family::Ecp5 => &["-nowidelut"],
    }
}

/// Yosys's synthesis pass for the family, with its [`synth_options`].
fn synth_pass(family: Family) -> String {
    let pass = match family {
        Family::Ice40 => "synth_ice40",
        Family::Ecp5 => "synth_ecp5",
    };
    std::iter::once(pass)
        .chain(synth_options(family).iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The family's synthesis as [`synthesise`] runs it (`read_verilog` with its defines,
/// the pass with its options): part of the key of anything cached from its netlist.
pub fn synthesis_commands(family: Family) -> String {
    format!("{}; {}", read_verilog(family), synth_pass(family))
}

/// `read_verilog` with the family's defines: on iCE40 `BLOOM_ICE40_BANK`, which
/// makes every bank instantiate its SB_RAM40_4K cells by hand (hdl/src/core/ram.rs).
fn read_verilog(family: Family) -> &'static str {
    match family {
        Family::Ice40 => "read_verilog -DBLOOM_ICE40_BANK",
        Family::Ecp5 => "read_verilog",
    }
}

/// The family's Yosys running `script` (its `-p`) in `dir`, its log in `log`.
fn yosys(
    family: Family,
    script: String,
    dir: &Path,
    log: &Path,
    progress: &Progress,
) -> Result<(), FlowError> {
    tools::run(
        synth_tool(family),
        &["-p".into(), script],
        dir,
        log,
        progress,
    )
}

/// Yosys `synth_ice40` / `synth_ecp5` of `verilog` (a file in `dir`) to `NAME.json`.
pub fn synthesise(
    family: Family,
    dir: &Path,
    verilog: &str,
    top: &str,
    name: &str,
    progress: &Progress,
) -> Result<Synthesis, FlowError> {
    let synth = synth_pass(family);
    let json = format!("{name}.json");
    let stat = format!("{name}-stat.json");
    let read = read_verilog(family);
    let script =
        format!("{read} {verilog}; {synth} -top {top} -json {json}; tee -q -o {stat} stat -json");
    let log = dir.join(format!("{name}-yosys.log"));
    progress.say(&format!("synthesis: {synth} -top {top}"));
    yosys(family, script, dir, &log, progress)?;
    let stats = parse_stat(&dir.join(&stat))?;
    let mut memories = mapped_memories(&std::fs::read_to_string(&log).unwrap_or_default(), top);
    // Only iCE40 banks are instantiated (read_verilog's define): no other family's
    // netlist is read again.
    if family == Family::Ice40 {
        for bank in instantiated_banks(&dir.join(&json))? {
            if !memories.iter().any(|m| m.memory == bank.memory) {
                memories.push(bank);
            }
        }
    }
    Ok(Synthesis {
        json: dir.join(json),
        cells: stats.get("design").cloned().unwrap_or_default(),
        memories,
        log,
    })
}

/// The synthesized netlist `json` (from [`synthesise`], the one nextpnr
/// places) written as Verilog for simulation with the family's cell models:
/// block-RAM INIT bits Yosys left undefined become 0, as nextpnr writes them
/// into the bitstream (Yosys 0.23 leaves the bits of an image it was not told
/// about undefined); multi-bit wires are split into bits (no false
/// combinational loops through bits of one vector for Verilator; ports stay
/// vectors); attributes are dropped.
pub fn write_sim_netlist(
    family: Family,
    dir: &Path,
    json: &str,
    verilog: &str,
    progress: &Progress,
) -> Result<PathBuf, FlowError> {
    let script = format!(
        "read_json {json}; setundef -zero -params; splitnets; write_verilog -noattr {verilog}"
    );
    let log = dir.join(format!("{verilog}-yosys.log"));
    progress.say(&format!("netlist for simulation: {verilog}"));
    yosys(family, script, dir, &log, progress)?;
    Ok(dir.join(verilog))
}

/// Per-module cell counts of the core with its hierarchy kept (for LUTs per
/// hash unit), from `hier-stat.txt`; Yosys's log in `hier-yosys.log`.
pub fn hierarchy_stats(
    family: Family,
    dir: &Path,
    verilog: &str,
    top: &str,
    progress: &Progress,
) -> Result<BTreeMap<String, CellCounts>, FlowError> {
    let synth = synth_pass(family);
    // Yosys 0.23's `stat -json` writes the hierarchy listing into its JSON,
    // so the hierarchical statistics are read from the text report.
    let read = read_verilog(family);
    let script =
        format!("{read} {verilog}; {synth} -noflatten -top {top}; tee -q -o hier-stat.txt stat");
    progress.say(&format!(
        "synthesis with hierarchy kept: {synth} -noflatten -top {top}"
    ));
    yosys(family, script, dir, &dir.join("hier-yosys.log"), progress)?;
    let path = dir.join("hier-stat.txt");
    let text = std::fs::read_to_string(&path).map_err(|e| io_err("reading", &path, e))?;
    Ok(parse_stat_text(&text))
}

/// Yosys' text `stat`: one `=== NAME ===` section per module with its cells
/// by type (types start with a capital or `$`; module names here do not), and
/// a `=== design hierarchy ===` section whose counts are the whole design's.
pub fn parse_stat_text(text: &str) -> BTreeMap<String, CellCounts> {
    let mut out: BTreeMap<String, CellCounts> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("=== ").and_then(|r| r.strip_suffix(" ===")) {
            let name = if name == "design hierarchy" {
                "design"
            } else {
                name
            };
            current = Some(name.trim_start_matches('\\').to_string());
            out.insert(current.clone().unwrap(), CellCounts::default());
            continue;
        }
        let Some(cur) = &current else { continue };
        // "SB_LUT4   21" (Yosys 0.23) or "172   LUT4" (later versions).
        let mut parts = t.split_whitespace();
        if let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) {
            let (ty, n) = if a.parse::<u64>().is_ok() {
                (b, a)
            } else {
                (a, b)
            };
            let is_cell_type = ty
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_uppercase() || c == '$');
            if let (true, Ok(n)) = (is_cell_type, n.parse::<u64>()) {
                out.get_mut(cur).unwrap().cells.insert(ty.to_string(), n);
            }
        }
    }
    out
}

#[derive(Clone, Debug, Serialize)]
pub struct PlaceRoute {
    pub clocks: Vec<ClockTiming>,
    pub utilisation: BTreeMap<String, Use>,
    pub critical_path: Option<String>,
    /// The routed design for the packer (`.asc` / `.config`), relative to the directory.
    pub routed: PathBuf,
    pub log: PathBuf,
}

impl PlaceRoute {
    /// The slowest routed clock (the one that limits the design).
    pub fn limiting_clock(&self) -> Option<&ClockTiming> {
        self.clocks
            .iter()
            .min_by(|a, b| a.fmax_mhz.total_cmp(&b.fmax_mhz))
    }
    pub fn used(&self, bel: &str) -> Use {
        self.utilisation.get(bel).copied().unwrap_or(Use {
            used: 0,
            available: 0,
        })
    }
}

pub struct PnrJob<'a> {
    pub device: &'a Device,
    pub package: &'a str,
    /// Constraint file (.pcf / .lpf) inside the directory; None: pins placed freely.
    pub constraints: Option<&'a str>,
    /// Target for clocks the constraints do not cover.
    pub freq_mhz: Option<f64>,
    pub seed: u64,
    /// Synthesised netlist (`.json`) in the directory.
    pub input: &'a str,
    /// Base name of this run's outputs and log.
    pub name: &'a str,
    /// Also write the placed and routed netlist (nextpnr `--write`), where each
    /// cell's placement can be read (what a filter swap needs).
    pub write_placed: Option<&'a str>,
}

/// nextpnr on `NAME.json`. Timing failures do not fail this step (the caller
/// decides); a design that does not fit is a DoesNotFit error.
pub fn place_and_route(
    dir: &Path,
    job: &PnrJob,
    progress: &Progress,
) -> Result<PlaceRoute, FlowError> {
    let d = job.device;
    let name = job.name;
    let routed = match d.family {
        Family::Ice40 => format!("{name}.asc"),
        Family::Ecp5 => format!("{name}.config"),
    };
    let report = format!("{name}-report.json");
    let mut args: Vec<String> = vec![
        d.nextpnr_flag.into(),
        "--package".into(),
        job.package.into(),
        "--json".into(),
        job.input.into(),
        "--report".into(),
        report.clone(),
        "--seed".into(),
        job.seed.to_string(),
        "--timing-allow-fail".into(),
    ];
    if let Some(speed) = d.speed {
        args.extend(["--speed".into(), speed.into()]);
    }
    match d.family {
        Family::Ice40 => args.extend(["--asc".into(), routed.clone()]),
        Family::Ecp5 => args.extend(["--textcfg".into(), routed.clone()]),
    }
    if let Some(c) = job.constraints {
        args.extend([
            if d.family == Family::Ice40 {
                "--pcf"
            } else {
                "--lpf"
            }
            .into(),
            c.into(),
        ]);
    }
    if let Some(f) = job.freq_mhz {
        args.extend(["--freq".into(), format!("{f}")]);
    }
    if let Some(w) = job.write_placed {
        let _ = std::fs::remove_file(dir.join(w));
        args.extend(["--write".into(), w.into()]);
    }
    let log = dir.join(format!("{name}-nextpnr.log"));
    progress.say(&format!(
        "place and route: {} {} {} (seed {})",
        pnr_tool(d.family).program(),
        d.nextpnr_flag,
        job.package,
        job.seed
    ));
    // A stale routed file from an earlier run must not be mistaken for this one's.
    let _ = std::fs::remove_file(dir.join(&routed));
    let _ = std::fs::remove_file(dir.join(&report));
    let result = tools::run(pnr_tool(d.family), &args, dir, &log, progress);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    if let Err(e) = result {
        if let Some(detail) = nextpnr::overflow(&text) {
            return Err(FlowError::DoesNotFit {
                part: d.part.to_string(),
                detail,
            });
        }
        return Err(e);
    }
    let report_v: serde_json::Value = std::fs::read_to_string(dir.join(&report))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(serde_json::Value::Null);
    let clocks = nextpnr::routed_fmax(&text);
    if clocks.is_empty() {
        return Err(FlowError::Io(format!(
            "nextpnr finished but its log {} has no routed maximum frequency",
            log.display()
        )));
    }
    Ok(PlaceRoute {
        clocks,
        utilisation: nextpnr::utilisation(&report_v),
        critical_path: nextpnr::critical_path(&text),
        routed: PathBuf::from(routed),
        log,
    })
}

/// Packs the routed design into `bitstream` (a name in `dir`). The packer
/// writes a temporary name that is renamed only once it succeeded, so a
/// failed or interrupted run leaves no bitstream behind.
pub fn pack(
    family: Family,
    dir: &Path,
    routed: &Path,
    bitstream: &str,
    progress: &Progress,
) -> Result<PathBuf, FlowError> {
    let partial = format!("{bitstream}.partial");
    let _ = std::fs::remove_file(dir.join(&partial));
    let routed = routed.to_string_lossy().to_string();
    let args: Vec<String> = match family {
        Family::Ice40 => vec![routed, partial.clone()],
        Family::Ecp5 => vec![
            "--compress".into(),
            "--input".into(),
            routed,
            "--bit".into(),
            partial.clone(),
        ],
    };
    progress.say(&format!("pack: {}", pack_tool(family).program()));
    let log = dir.join("pack.log");
    if let Err(e) = tools::run(pack_tool(family), &args, dir, &log, progress) {
        let _ = std::fs::remove_file(dir.join(&partial));
        return Err(e);
    }
    let done = dir.join(bitstream);
    let size = std::fs::metadata(dir.join(&partial))
        .map(|m| m.len())
        .unwrap_or(0);
    if size == 0 {
        let _ = std::fs::remove_file(dir.join(&partial));
        return Err(FlowError::Io(format!(
            "{} wrote an empty bitstream",
            pack_tool(family).program()
        )));
    }
    std::fs::rename(dir.join(&partial), &done)
        .map_err(|e| io_err("renaming bitstream to", &done, e))?;
    Ok(done)
}

/// Loads the bitstream into the board's FPGA (volatile: lost at power-off).
/// Looks for the board's USB interface first, so that "no board" is said
/// plainly rather than as a programmer error.
pub fn program(
    board: &Board,
    bitstream: &Path,
    log: &Path,
    progress: &Progress,
) -> Result<(), FlowError> {
    let loader = Tool::OpenFpgaLoader.locate()?;
    let scan = std::process::Command::new(&loader)
        .arg("--scan-usb")
        .output()
        .map_err(|e| FlowError::Io(format!("running openFPGALoader --scan-usb: {e}")))?;
    let listing =
        String::from_utf8_lossy(&scan.stdout).to_string() + &String::from_utf8_lossy(&scan.stderr);
    if !listing.to_ascii_lowercase().contains(board.programmer_usb) {
        return Err(FlowError::Io(format!(
            "no {} is attached: openFPGALoader --scan-usb lists no USB device {} (the board's programming interface). \
             The bitstream {} is complete; connect the board and run: openFPGALoader -b {} {}",
            board.title,
            board.programmer_usb,
            bitstream.display(),
            board.programmer_board,
            bitstream.display()
        )));
    }
    let args = vec![
        "-b".to_string(),
        board.programmer_board.to_string(),
        bitstream.to_string_lossy().to_string(),
    ];
    progress.say(&format!(
        "programming the {} with openFPGALoader",
        board.title
    ));
    tools::run(
        Tool::OpenFpgaLoader,
        &args,
        bitstream.parent().unwrap_or(Path::new(".")),
        log,
        progress,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapped_memories_from_yosys_log() {
        let log = "x\nmapping memory top.a.buffer.mem via $__ICE40_RAM4K_\n  mapping memory top.core.parts$0.ram.mem via $__DP16KD_\nmapping memory\n";
        let m = mapped_memories(log, "top");
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[0],
            MappedMemory {
                memory: "a.buffer.mem".into(),
                cell: "$__ICE40_RAM4K_".into()
            }
        );
        assert_eq!(m[1].memory, "core.parts$0.ram.mem");
        assert_eq!(m[1].cell, "$__DP16KD_");
    }

    #[test]
    fn stat_text_both_yosys_layouts() {
        let old = "=== m ===\n\n   Number of cells:  3\n     SB_DFF   2\n     SB_LUT4  21\n\n=== design hierarchy ===\n\n   bloom_core  1\n     SB_LUT4  40\n";
        let s = parse_stat_text(old);
        assert_eq!(s["m"].luts(), 21);
        assert_eq!(s["m"].ffs(), 2);
        assert_eq!(s["design"].luts(), 40);
        let new = "=== m ===\n\n      244 cells\n       12   L6MUX21\n      172   LUT4\n       24   TRELLIS_FF\n\n=== design hierarchy ===\n     2414 bloom_core\n       44   CCU2C\n     1348   LUT4\n";
        let s = parse_stat_text(new);
        assert_eq!(s["m"].luts(), 172);
        assert_eq!(s["m"].ffs(), 24);
        assert_eq!(s["design"].luts(), 1348 + 88);
    }
}
